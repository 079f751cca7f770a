/// The lengths of a RIFF/WAVE file: its `data` chunk's size against the audio the file holds.
///
/// Read for sample formats where a frame is `blockAlign` bytes (PCM, IEEE float, A-law, µ-law, and their
/// extensible forms); compressed WAVE files (ADPCM, GSM, MP3) are left to libsndfile. A size of 0xFFFFFFFF (what a
/// recorder writes while it streams) says nothing; 0 says the header was never finalised and differs from any audio
/// present.
enum RIFFWaveLength {
    /// Format tags whose frames are `blockAlign` bytes each.
    private static let framedFormats: Set<UInt16> = [1, 3, 6, 7, 0xFFFE]
    private static let unknownSize: UInt32 = 0xFFFF_FFFF

    static func inspect(_ file: ContainerFile) -> ContainerLength.Finding? {
        guard let header = file.bytes(at: 0, count: 12), header[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        var offset: Int64 = 12
        var blockAlign: Int64?
        // A file of thousands of chunks before its audio is not a recording: give up and let libsndfile decide.
        for _ in 0..<4_096 {
            guard let chunk = file.bytes(at: offset, count: 8) else { return nil }
            let size = ContainerFile.uint32(chunk, at: 4, bigEndian: false)
            let bodyStart = offset + 8
            if chunk[0..<4].elementsEqual("fmt ".utf8) {
                guard size >= 16, let format = file.bytes(at: bodyStart, count: 16),
                    framedFormats.contains(ContainerFile.uint16(format, at: 0, bigEndian: false))
                else { return nil }
                blockAlign = Int64(ContainerFile.uint16(format, at: 12, bigEndian: false))
            } else if chunk[0..<4].elementsEqual("data".utf8) {
                guard let frameBytes = blockAlign, frameBytes > 0 else { return nil }
                return finding(
                    file, sizeField: offset + 4, dataStart: bodyStart, declaredSize: size, frameBytes: frameBytes)
            }
            offset = bodyStart + Int64(size) + Int64(size & 1)
        }
        return nil
    }

    private static func finding(
        _ file: ContainerFile, sizeField: Int64, dataStart: Int64, declaredSize: UInt32, frameBytes: Int64
    ) -> ContainerLength.Finding {
        let declared: Int64? = declaredSize == unknownSize ? nil : Int64(declaredSize)
        let end = ContainerLength.audioEnd(
            of: file, dataStart: dataStart, declaredEnd: dataStart + (declared ?? 0), frameBytes: frameBytes,
            bigEndian: false)
        let present = end - dataStart
        var patches: [ContainerLength.Patch] = []
        // libsndfile reads what the size says (to the end of the file when it is 0xFFFFFFFF): say what is there,
        // when a 32-bit size can.
        if present > (declared ?? -1) || (declared == nil && end < file.size), present < Int64(unknownSize) {
            patches = [.init(offset: sizeField, bytes: ContainerFile.bytes(of: UInt32(present), bigEndian: false))]
        }
        return .init(
            declaredFrames: declared.map { $0 / frameBytes }, presentFrames: present / frameBytes, patches: patches)
    }
}
