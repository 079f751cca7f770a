import COgg
import Foundation

/// Reads the pages of an Ogg file (RFC 3533) in order through libogg, each checked against its CRC.
///
/// A page is handed out as libogg's `ogg_page`, whose bytes stay valid until the next call. Not thread-safe.
final class OggPageReader {
    /// The file, for error messages.
    let path: String
    private let file: UnsafeMutablePointer<FILE>
    private let sync = UnsafeMutablePointer<ogg_sync_state>.allocate(capacity: 1)
    private var page = ogg_page()
    /// Bytes of the file handed to libogg so far.
    private var bytesFed: Int64 = 0
    /// Bytes of whole pages handed out so far.
    private(set) var bytesRead: Int64 = 0

    /// Bytes asked of the file at a time: a few pages.
    private static let chunkBytes = 64 * 1_024

    /// Opens `path`; nil when it cannot be opened.
    init?(path: String) {
        guard let file = fopen(path, "rb") else {
            sync.deallocate()
            return nil
        }
        self.path = path
        self.file = file
        ogg_sync_init(sync)
    }

    deinit {
        ogg_sync_clear(sync)
        sync.deallocate()
        fclose(file)
    }

    /// The next page, or nil when the file ends after a whole page.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when bytes that are not a valid page come first (a damaged page
    ///   fails its CRC and is skipped by libogg), when the file ends inside a page, or when it cannot be read.
    func nextPage() throws -> ogg_page? {
        while true {
            let result = ogg_sync_pageseek(sync, &page)
            if result > 0 {
                bytesRead += Int64(result)
                return page
            }
            if result < 0 {
                throw SleepCycleSdkError.invalidInput(
                    "\(path): corrupt: \(-result) bytes at byte \(bytesRead) are not a valid Ogg page (damaged or "
                        + "not Ogg)")
            }
            guard let buffer = ogg_sync_buffer(sync, Self.chunkBytes) else {
                throw SleepCycleSdkError.invalidInput("\(path): cannot allocate the Ogg read buffer")
            }
            let got = fread(buffer, 1, Self.chunkBytes, file)
            if got == 0 {
                if ferror(file) != 0 { throw SleepCycleSdkError.invalidInput("\(path): read error") }
                if bytesFed > bytesRead {
                    throw SleepCycleSdkError.invalidInput(
                        "\(path): truncated: the file ends inside an Ogg page (\(bytesFed - bytesRead) bytes of it)")
                }
                return nil
            }
            ogg_sync_wrote(sync, got)
            bytesFed += Int64(got)
        }
    }

    /// The last page of the file, found by reading only its end, or nil when the file does not end with a whole,
    /// valid page (it was cut short, or its end is damaged). Leaves the reading position alone.
    ///
    /// An Ogg page is at most 65,307 bytes, so the last 64 KiB + 4 KiB hold the whole of the last page.
    func lastPage() -> (serialNumber: Int32, granulePosition: Int64, endsStream: Bool)? {
        let resume = ftello(file)
        defer { fseeko(file, resume, SEEK_SET) }
        guard fseeko(file, 0, SEEK_END) == 0 else { return nil }
        let fileBytes = ftello(file)
        let tailBytes = min(fileBytes, 68 * 1_024)
        guard fseeko(file, fileBytes - tailBytes, SEEK_SET) == 0 else { return nil }
        var tail = ogg_sync_state()
        ogg_sync_init(&tail)
        defer { ogg_sync_clear(&tail) }
        guard let buffer = ogg_sync_buffer(&tail, Int(tailBytes)), fread(buffer, 1, Int(tailBytes), file) == tailBytes
        else { return nil }
        ogg_sync_wrote(&tail, Int(tailBytes))
        var position: Int64 = 0
        var last: (serialNumber: Int32, granulePosition: Int64, endsStream: Bool)?
        var candidate = ogg_page()
        while case let result = ogg_sync_pageseek(&tail, &candidate), result != 0 {
            position += Int64(abs(result))
            last =
                result > 0
                ? (ogg_page_serialno(&candidate), ogg_page_granulepos(&candidate), ogg_page_eos(&candidate) != 0) : nil
        }
        // Whatever follows the last whole page (part of a page, or bytes that are none) means the end is missing.
        return position == tailBytes ? last : nil
    }
}
