/// The identification header ("OpusHead") that opens an Ogg Opus stream (RFC 7845 §5.1), for channel-mapping
/// family 0: one Opus stream, mono or stereo.
struct OpusIdentificationHeader: Equatable {
    /// 1 or 2.
    let channelCount: Int
    /// Samples at 48 kHz the decoder must discard at the start of the stream (its warm-up).
    let preSkip: Int64
    /// The sample rate of the audio the encoder was given (Hz; 0 when unknown).
    let inputSampleRate: Int
    /// The gain to apply on decoding, in dB as a Q7.8 fixed-point number.
    let outputGainQ8: Int16

    /// The size of a family-0 header: magic, version, channels, pre-skip, input rate, gain, family.
    private static let familyZeroBytes = 19

    /// Parses `packet`; nil when it is not the header of a family-0 stream of one or two channels (another family,
    /// an unknown version, or not an identification header at all).
    init?(packet: UnsafeBufferPointer<UInt8>) {
        guard packet.count == Self.familyZeroBytes, packet.starts(with: Array("OpusHead".utf8)) else { return nil }
        let version = packet[8]
        let channels = Int(packet[9])
        let family = packet[18]
        // Versions 0 and 1 are the ones libsndfile reads; other versions and families stay with it.
        guard version <= 1, family == 0, (1...2).contains(channels) else { return nil }
        func littleEndian(_ offset: Int, bytes: Int) -> UInt32 {
            (0..<bytes).reduce(0) { $0 | UInt32(packet[offset + $1]) << (8 * $1) }
        }
        channelCount = channels
        preSkip = Int64(littleEndian(10, bytes: 2))
        inputSampleRate = Int(littleEndian(12, bytes: 4))
        outputGainQ8 = Int16(truncatingIfNeeded: littleEndian(16, bytes: 2))
    }

    /// The rate decoded at: the lowest rate Opus decodes at that is not below the input rate (48 kHz when the input
    /// rate is above 24 kHz; 8 kHz when it is unknown), the rule libsndfile follows.
    var decodeSampleRate: Int {
        let rates = [8_000, 12_000, 16_000, 24_000]
        return rates.first { inputSampleRate <= $0 } ?? 48_000
    }
}
