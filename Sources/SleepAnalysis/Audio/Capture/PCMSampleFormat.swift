import CALSA
import Foundation

#if _endian(big)
    #error("The ALSA capture reads little-endian sample formats with native loads: big-endian hosts are unsupported")
#endif

/// A capture sample format the live source can negotiate, in order of preference, and its conversion to Float.
enum PCMSampleFormat: CaseIterable {
    /// Signed 16-bit little-endian.
    case signed16
    /// Signed 32-bit little-endian.
    case signed32
    /// 32-bit float little-endian.
    case float32

    /// ALSA's name for it.
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .signed16: SND_PCM_FORMAT_S16_LE
        case .signed32: SND_PCM_FORMAT_S32_LE
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        }
    }

    /// Bytes per sample.
    var bytesPerSample: Int {
        switch self {
        case .signed16: 2
        case .signed32, .float32: 4
        }
    }

    /// Converts `count` samples from `raw` to Float in -1...1.
    func convert(_ raw: UnsafeRawBufferPointer, count: Int) -> [Float] {
        switch self {
        case .signed16:
            let values = raw.bindMemory(to: Int16.self)
            return (0..<count).map { Float(values[$0]) / 32_768 }
        case .signed32:
            let values = raw.bindMemory(to: Int32.self)
            return (0..<count).map { Float(Double(values[$0]) / 2_147_483_648) }
        case .float32:
            return Array(raw.bindMemory(to: Float.self).prefix(count))
        }
    }
}
