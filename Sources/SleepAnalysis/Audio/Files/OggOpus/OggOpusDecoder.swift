import COgg
import COpus
import Foundation

/// Decodes an Ogg Opus file of channel-mapping family 0 (one stream, mono or stereo; RFC 7845) with libogg and
/// libopus's single-stream decoder, to the samples libsndfile gives for it.
///
/// libsndfile decodes every Ogg Opus file with libopus's multistream decoder, which in libopus 1.3 probes the CPU's
/// features (`cpuid`) several times per packet; under a hypervisor that trap cost 55 % of a night's analysis. The
/// single-stream decoder decodes the same packets to the same samples without it. The rules are libsndfile's: the
/// decoding rate is the lowest Opus rate not below the encoder's input rate, the header's output gain is applied,
/// the pre-skip is discarded and the last page's granule position trims the end.
///
/// Not thread-safe: use it from one thread.
final class OggOpusDecoder {
    /// Frames per second decoded.
    let sampleRate: Int
    /// Channels per frame (1 or 2).
    let channelCount: Int
    /// Frames the file holds, from the granule positions of its first and last audio pages.
    private(set) var frameCount: Int64 = 0

    private let pages: OggPageReader
    private let header: OpusIdentificationHeader
    private let serialNumber: Int32
    private let stream = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
    private let decoder: OpaquePointer
    /// 48 kHz granule units per decoded frame.
    private let granulesPerFrame: Int64
    /// The granule position before the stream's first sample (not 0 when the stream was cut from a longer one).
    private var startGranule: Int64 = 0

    /// The packets that complete on the current page (libogg keeps their bytes until the next page goes in).
    private var packets: [ogg_packet] = []
    private var nextPacket = 0
    private var pageGranule: Int64 = 0
    private var pageEndsStream = false
    /// The granule position at the start of the next packet.
    private var packetGranule: Int64 = 0
    private var reachedEnd = false

    /// The decoded frames of the current packet, interleaved, and which of them are still to hand out.
    private var decoded: [Float]
    private var decodedStart = 0
    private var decodedEnd = 0

    /// Opens `url` when it is an Ogg Opus file of family 0; nil when it is anything else (not Ogg, another codec,
    /// a multistream family), which libsndfile then reads.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when it is Ogg Opus of family 0 but cut short (its last page is
    ///   missing or incomplete), or its headers or first audio page are damaged.
    static func open(_ url: URL) throws -> OggOpusDecoder? {
        guard let pages = OggPageReader(path: url.path), let first = try? pages.nextPage() else { return nil }
        var firstPage = first
        guard ogg_page_bos(&firstPage) != 0, ogg_page_packets(&firstPage) == 1, firstPage.body_len == 19 else {
            return nil
        }
        let body = UnsafeBufferPointer(start: firstPage.body, count: firstPage.body_len)
        guard let header = OpusIdentificationHeader(packet: body) else { return nil }
        let truncated = SleepCycleSdkError.invalidInput(
            "\(url.path): truncated: the Ogg Opus stream's last page (with the end-of-stream flag) is missing or "
                + "incomplete")
        guard let last = pages.lastPage() else { throw truncated }
        // A file that ends with another logical stream's page (several streams multiplexed) stays with libsndfile.
        guard last.serialNumber == ogg_page_serialno(&firstPage) else { return nil }
        guard last.endsStream else { throw truncated }
        return try OggOpusDecoder(pages: pages, firstPage: firstPage, header: header, lastGranule: last.granulePosition)
    }

    private init(
        pages: OggPageReader, firstPage: ogg_page, header: OpusIdentificationHeader, lastGranule: Int64
    ) throws {
        var firstPage = firstPage
        self.pages = pages
        self.header = header
        serialNumber = ogg_page_serialno(&firstPage)
        sampleRate = header.decodeSampleRate
        channelCount = header.channelCount
        granulesPerFrame = Int64(48_000 / sampleRate)
        decoded = [Float](repeating: 0, count: Self.maxPacketFrames(sampleRate) * header.channelCount)
        ogg_stream_init(stream, serialNumber)
        var error: Int32 = 0
        guard let decoder = opus_decoder_create(Int32(sampleRate), Int32(channelCount), &error), error == OPUS_OK else {
            ogg_stream_clear(stream)
            stream.deallocate()
            throw SleepCycleSdkError.invalidInput(
                "\(pages.path): cannot start the Opus decoder (\(String(cString: opus_strerror(error))))")
        }
        self.decoder = decoder
        guard copus_decoder_set_gain(decoder, Int32(header.outputGainQ8)) == OPUS_OK else {
            throw SleepCycleSdkError.invalidInput("\(pages.path): the Ogg Opus output gain cannot be applied")
        }
        // The identification header is the first page's one packet; the comment header follows on its own pages.
        var identification = ogg_packet()
        guard ogg_stream_pagein(stream, &firstPage) == 0, ogg_stream_packetout(stream, &identification) == 1 else {
            throw SleepCycleSdkError.invalidInput("\(pages.path): corrupt: the Ogg Opus header page cannot be read")
        }
        try skipCommentHeader()
        guard try loadNextAudioPage(isFirst: true) else {
            throw SleepCycleSdkError.invalidInput("\(pages.path): no audio (the Ogg Opus stream holds no packets)")
        }
        frameCount = max(0, (lastGranule - startGranule - header.preSkip) / granulesPerFrame)
    }

    deinit {
        opus_decoder_destroy(decoder)
        ogg_stream_clear(stream)
        stream.deallocate()
    }

    /// The longest Opus packet (120 ms) in frames at `sampleRate`.
    private static func maxPacketFrames(_ sampleRate: Int) -> Int { sampleRate * 120 / 1_000 }

    /// Decodes up to `maxFrames` frames, interleaved, into `buffer`; returns how many, 0 at the end of the stream.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when a page is damaged or missing, a packet does not decode, or
    ///   the file ends before its last page.
    func read(into buffer: UnsafeMutableBufferPointer<Float>, maxFrames: Int) throws -> Int {
        var written = 0
        while written < maxFrames {
            if decodedStart == decodedEnd {
                guard try decodeNextPacket() else { break }
                continue
            }
            let frames = min(maxFrames - written, decodedEnd - decodedStart)
            decoded.withUnsafeBufferPointer { source in
                let from = source.baseAddress! + decodedStart * channelCount
                (buffer.baseAddress! + written * channelCount).update(from: from, count: frames * channelCount)
            }
            decodedStart += frames
            written += frames
        }
        return written
    }

    /// Decodes the next packet and marks which of its frames are audio (past the pre-skip, before the end trim);
    /// false at the end of the stream.
    private func decodeNextPacket() throws -> Bool {
        if nextPacket == packets.count {
            guard try loadNextAudioPage(isFirst: false) else { return false }
        }
        let packet = packets[nextPacket]
        nextPacket += 1
        let capacity = Self.maxPacketFrames(sampleRate)
        let frames = decoded.withUnsafeMutableBufferPointer {
            opus_decode_float(decoder, packet.packet, Int32(packet.bytes), $0.baseAddress!, Int32(capacity), 0)
        }
        guard frames >= 0 else {
            throw SleepCycleSdkError.invalidInput(
                "\(pages.path): corrupt: an Opus packet does not decode (\(String(cString: opus_strerror(frames))))")
        }
        let packetEnd = packetGranule + Int64(frames) * granulesPerFrame
        var audioFrames = Int64(frames)
        if packetEnd > pageGranule {
            // Only the stream's last page may end before its packets do: the rest is padding.
            guard pageEndsStream else {
                throw SleepCycleSdkError.invalidInput(
                    "\(pages.path): corrupt: an Ogg page's granule position \(pageGranule) is before the end of its "
                        + "packets (\(packetEnd))")
            }
            audioFrames = max(0, (pageGranule - packetGranule) / granulesPerFrame)
        }
        let streamPosition = packetGranule - startGranule
        let skipped =
            streamPosition < header.preSkip ? min((header.preSkip - streamPosition) / granulesPerFrame, audioFrames) : 0
        decodedStart = Int(skipped)
        decodedEnd = Int(audioFrames)
        packetGranule = packetEnd
        return true
    }

    /// Reads pages until packets complete on one of this stream's, and takes them with the page's granule position;
    /// false after the end-of-stream page. The first audio page also fixes the stream's starting granule position.
    private func loadNextAudioPage(isFirst: Bool) throws -> Bool {
        packets.removeAll(keepingCapacity: true)
        nextPacket = 0
        while packets.isEmpty {
            if reachedEnd { return false }
            try pageIn()
            var packet = ogg_packet()
            while case let result = ogg_stream_packetout(stream, &packet), result != 0 {
                guard result == 1 else {
                    throw SleepCycleSdkError.invalidInput(
                        "\(pages.path): corrupt: an Ogg page is missing before byte \(pages.bytesRead)")
                }
                packets.append(packet)
            }
        }
        let previousGranule = pageGranule
        pageGranule = packets[packets.count - 1].granulepos
        pageEndsStream = reachedEnd
        guard isFirst else {
            packetGranule = previousGranule
            return true
        }
        let samples = packets.reduce(Int64(0)) { total, packet in
            total + Int64(max(0, opus_packet_get_nb_samples(packet.packet, Int32(packet.bytes), 48_000)))
        }
        // A stream may start at a granule position above 0; a first page that is also the last may not say so.
        guard pageEndsStream ? samples >= pageGranule : samples <= pageGranule else {
            throw SleepCycleSdkError.invalidInput(
                "\(pages.path): corrupt: the first Ogg Opus page's granule position \(pageGranule) does not match its "
                    + "\(samples) samples")
        }
        startGranule = pageEndsStream ? 0 : pageGranule - samples
        packetGranule = startGranule
        return true
    }

    /// Puts the stream's next page into libogg (pages of other streams are passed over).
    private func pageIn() throws {
        while true {
            guard var page = try pages.nextPage() else {
                throw SleepCycleSdkError.invalidInput(
                    "\(pages.path): truncated: the file ends before the Ogg Opus stream's last page")
            }
            guard ogg_page_serialno(&page) == serialNumber else { continue }
            guard ogg_stream_pagein(stream, &page) == 0 else {
                throw SleepCycleSdkError.invalidInput(
                    "\(pages.path): corrupt: an Ogg page before byte \(pages.bytesRead) cannot be read")
            }
            reachedEnd = ogg_page_eos(&page) != 0
            return
        }
    }

    /// Reads past the comment header ("OpusTags"), which may span pages; its tags are not used.
    private func skipCommentHeader() throws {
        var packet = ogg_packet()
        while ogg_stream_packetout(stream, &packet) != 1 {
            guard !reachedEnd else { break }
            try pageIn()
        }
        let tag = Array("OpusTags".utf8)
        guard packet.bytes >= tag.count, UnsafeBufferPointer(start: packet.packet, count: tag.count).elementsEqual(tag)
        else {
            throw SleepCycleSdkError.invalidInput("\(pages.path): corrupt: the Ogg Opus comment header is missing")
        }
    }
}
