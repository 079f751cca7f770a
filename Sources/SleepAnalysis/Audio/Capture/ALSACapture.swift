import CALSA
import Foundation

/// An open ALSA capture PCM: opened and negotiated by `init`, read by `read(maxFrames:timeoutMilliseconds:)`,
/// closed by `close()`. Every ALSA call goes through `ALSAFunctions` and every return code is checked; a failure
/// becomes an `ALSAError`. Not thread-safe: one thread opens it, then hands it to the capture thread.
///
/// The PCM is opened non-blocking (a busy device fails with `-EBUSY` instead of hanging `start`), then switched
/// to blocking reads. Negotiation: interleaved access; the first of S16_LE, S32_LE, FLOAT_LE the device takes; the channel count
/// asked for, else stereo when offered, else mono; the first of 16000, 48000, 44100 Hz offered, else the rate
/// nearest 48000; periods of about 100 ms in a buffer of about 1 s.
final class ALSACapture {
    /// Rates tried in order before falling back to the nearest to 48 kHz.
    static let preferredRates: [UInt32] = [16_000, 48_000, 44_100]
    /// The period asked for, in microseconds.
    static let periodMicroseconds: UInt32 = 100_000
    /// The buffer asked for, in microseconds.
    static let bufferMicroseconds: UInt32 = 1_000_000

    /// The device's name, for messages.
    let deviceName: String
    /// The negotiated sample format.
    let format: PCMSampleFormat
    /// The negotiated rate, frames per second.
    let sampleRate: Int
    /// The negotiated channels per frame (1 or 2).
    let channelCount: Int
    /// Frames per period: the most one read returns.
    let periodFrames: Int
    /// Overruns (and suspends) recovered with `snd_pcm_recover` so far.
    private(set) var recoveredFaults = 0

    private let alsa: ALSAFunctions
    private var pcm: OpaquePointer?
    private var configuration: OpaquePointer?
    private let buffer: UnsafeMutableRawBufferPointer

    /// Opens `device` for capture and negotiates the format.
    ///
    /// - Parameters:
    ///   - device: The PCM to open.
    ///   - channelCount: 1 or 2 to insist on, or nil to prefer stereo.
    ///   - alsa: The ALSA functions to call.
    /// - Throws: `ALSAError` naming the call that failed (an unknown device fails in `snd_pcm_open`).
    init(device: ALSADevice, channelCount requestedChannels: Int?, alsa: ALSAFunctions) throws(ALSAError) {
        self.alsa = alsa
        deviceName = device.name
        alsa.keepLibraryMessages()
        _ = alsa.takeLibraryMessage()
        var opened: OpaquePointer?
        var loadedConfiguration: OpaquePointer?
        switch device {
        case .named(let name):
            try Self.check(alsa.pcmOpen(&opened, name), "snd_pcm_open", device.name, alsa)
        case .configuration(let text, let pcmName):
            loadedConfiguration = try Self.loadConfiguration(text, device.name, alsa)
            guard let loadedConfiguration else { throw Self.failure("snd_config_top", device.name, "no configuration") }
            let code = alsa.pcmOpenWithConfig(&opened, pcmName, loadedConfiguration)
            if code < 0 { _ = alsa.configDelete(loadedConfiguration) }  // The open error is the one to report.
            try Self.check(code, "snd_pcm_open_lconf", device.name, alsa)
        }
        guard let opened else { throw Self.failure("snd_pcm_open", device.name, "no PCM handle returned") }

        let negotiated: (format: PCMSampleFormat, rate: Int, channels: Int, period: Int)
        do {
            try Self.check(alsa.setBlocking(opened), "snd_pcm_nonblock", device.name, alsa)
            negotiated = try Self.negotiate(opened, requestedChannels, device.name, alsa)
            try Self.check(alsa.prepare(opened), "snd_pcm_prepare", device.name, alsa)
            try Self.check(alsa.start(opened), "snd_pcm_start", device.name, alsa)
        } catch {
            _ = alsa.pcmClose(opened)  // The negotiation error is the one to report.
            if let loadedConfiguration { _ = alsa.configDelete(loadedConfiguration) }
            throw error
        }
        pcm = opened
        configuration = loadedConfiguration
        format = negotiated.format
        sampleRate = negotiated.rate
        channelCount = negotiated.channels
        periodFrames = negotiated.period
        buffer = .allocate(
            byteCount: negotiated.period * negotiated.channels * negotiated.format.bytesPerSample,
            alignment: 16)
    }

    deinit {
        // `close()` is the checked path; this only releases a capture abandoned without it.
        if let pcm { _ = alsa.pcmClose(pcm) }
        if let configuration { _ = alsa.configDelete(configuration) }
        buffer.deallocate()
    }

    /// Waits up to `timeoutMilliseconds` for audio, then reads at most `maxFrames` frames (and at most a period).
    ///
    /// An overrun or a suspend is recovered (`snd_pcm_recover`, then `snd_pcm_start` if the stream is left
    /// prepared) and reads nothing this time.
    ///
    /// - Returns: Interleaved samples in -1...1; empty after a timeout or a recovered fault.
    /// - Throws: `ALSAError` when the device fails beyond recovery (it vanished: `-ENODEV`, `-EBADFD`, …).
    func read(maxFrames: Int, timeoutMilliseconds: Int32) throws(ALSAError) -> [Float] {
        guard let pcm else { throw Self.failure("snd_pcm_readi", deviceName, "the capture is closed") }
        let waited = alsa.wait(pcm, timeoutMilliseconds)
        if waited < 0 {
            try recover(pcm, from: waited, after: "snd_pcm_wait")
            return []
        }
        if waited == 0 { return [] }
        let wanted = min(maxFrames, periodFrames)
        guard wanted > 0, let base = buffer.baseAddress else { return [] }
        let got = alsa.readInterleaved(pcm, base, UInt(wanted))
        if got < 0 {
            try recover(pcm, from: Int32(truncatingIfNeeded: got), after: "snd_pcm_readi")
            return []
        }
        guard got <= wanted else {
            throw Self.failure("snd_pcm_readi", deviceName, "returned \(got) frames for \(wanted) asked")
        }
        let samples = got * channelCount
        return format.convert(
            UnsafeRawBufferPointer(rebasing: buffer[0..<samples * format.bytesPerSample]),
            count: samples)
    }

    /// Closes the PCM and releases the loaded configuration.
    ///
    /// - Throws: `ALSAError` when `snd_pcm_close` or `snd_config_delete` fails.
    func close() throws(ALSAError) {
        if let pcm {
            self.pcm = nil
            try Self.check(alsa.pcmClose(pcm), "snd_pcm_close", deviceName, alsa)
        }
        if let configuration {
            self.configuration = nil
            try Self.check(alsa.configDelete(configuration), "snd_config_delete", deviceName, alsa)
        }
    }

    // MARK: - Steps

    private func recover(_ pcm: OpaquePointer, from code: Int32, after operation: String) throws(ALSAError) {
        let recovered = alsa.recover(pcm, code)
        guard recovered >= 0 else {
            // snd_pcm_recover handles overruns, suspends and interrupts; anything else comes back unchanged.
            throw ALSAError(operation: operation, device: deviceName, code: code, message: alsa.errorDescription(code))
        }
        recoveredFaults += 1
        if alsa.state(pcm) == SND_PCM_STATE_PREPARED {
            try Self.check(alsa.start(pcm), "snd_pcm_start", deviceName, alsa)
        }
    }

    private static func loadConfiguration(
        _ text: String, _ device: String, _ alsa: ALSAFunctions
    )
        throws(ALSAError) -> OpaquePointer?
    {
        var top: OpaquePointer?
        try check(alsa.configTop(&top), "snd_config_top", device, alsa)
        guard let top else { return nil }
        var input: OpaquePointer?
        let opened = alsa.inputBufferOpen(&input, text)
        guard opened >= 0, let input else {
            _ = alsa.configDelete(top)  // The open error is the one to report.
            try check(opened < 0 ? opened : -EINVAL, "snd_input_buffer_open", device, alsa)
            return nil
        }
        let loaded = alsa.configLoad(top, input)
        let closed = alsa.inputClose(input)
        if loaded < 0 || closed < 0 { _ = alsa.configDelete(top) }  // The load error is the one to report.
        try check(loaded, "snd_config_load", device, alsa)
        try check(closed, "snd_input_close", device, alsa)
        return top
    }

    private static func negotiate(
        _ pcm: OpaquePointer, _ requestedChannels: Int?, _ device: String,
        _ alsa: ALSAFunctions
    )
        throws(ALSAError) -> (format: PCMSampleFormat, rate: Int, channels: Int, period: Int)
    {
        var params: OpaquePointer?
        try check(alsa.hwParamsMalloc(&params), "snd_pcm_hw_params_malloc", device, alsa)
        guard let params else { throw failure("snd_pcm_hw_params_malloc", device, "no parameters returned") }
        defer { alsa.hwParamsFree(params) }

        try check(alsa.hwParamsAny(pcm, params), "snd_pcm_hw_params_any", device, alsa)
        try check(
            alsa.hwParamsSetAccess(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED),
            "snd_pcm_hw_params_set_access", device, alsa)

        guard
            let format = PCMSampleFormat.allCases.first(where: {
                alsa.hwParamsTestFormat(pcm, params, $0.alsaFormat) == 0
            })
        else {
            throw failure("snd_pcm_hw_params_test_format", device, "none of S16_LE, S32_LE, FLOAT_LE is offered")
        }
        try check(alsa.hwParamsSetFormat(pcm, params, format.alsaFormat), "snd_pcm_hw_params_set_format", device, alsa)

        let candidates: [UInt32] = requestedChannels.map { [UInt32($0)] } ?? [2, 1]
        guard let channels = candidates.first(where: { alsa.hwParamsTestChannels(pcm, params, $0) == 0 }) else {
            let wanted = requestedChannels.map { "\($0) channel(s) are" } ?? "neither mono nor stereo is"
            throw failure("snd_pcm_hw_params_test_channels", device, "\(wanted) offered")
        }
        try check(alsa.hwParamsSetChannels(pcm, params, channels), "snd_pcm_hw_params_set_channels", device, alsa)

        if let rate = preferredRates.first(where: { alsa.hwParamsTestRate(pcm, params, $0) == 0 }) {
            try check(alsa.hwParamsSetRate(pcm, params, rate), "snd_pcm_hw_params_set_rate", device, alsa)
        } else {
            var rate: UInt32 = 48_000
            try check(alsa.hwParamsSetRateNear(pcm, params, &rate), "snd_pcm_hw_params_set_rate_near", device, alsa)
        }
        var bufferTime = bufferMicroseconds
        try check(
            alsa.hwParamsSetBufferTimeNear(pcm, params, &bufferTime),
            "snd_pcm_hw_params_set_buffer_time_near", device, alsa)
        var periodTime = periodMicroseconds
        try check(
            alsa.hwParamsSetPeriodTimeNear(pcm, params, &periodTime),
            "snd_pcm_hw_params_set_period_time_near", device, alsa)
        try check(alsa.hwParamsInstall(pcm, params), "snd_pcm_hw_params", device, alsa)

        var rate: UInt32 = 0
        try check(alsa.hwParamsGetRate(params, &rate), "snd_pcm_hw_params_get_rate", device, alsa)
        var period: UInt = 0
        try check(alsa.hwParamsGetPeriodSize(params, &period), "snd_pcm_hw_params_get_period_size", device, alsa)
        guard rate > 0, period > 0 else {
            throw failure("snd_pcm_hw_params", device, "the device reports \(rate) Hz and \(period)-frame periods")
        }
        return (format, Int(rate), Int(channels), Int(period))
    }

    /// Throws an `ALSAError` for a negative ALSA return code.
    @discardableResult
    private static func check(
        _ code: Int32, _ operation: String, _ device: String, _ alsa: ALSAFunctions
    )
        throws(ALSAError) -> Int32
    {
        guard code < 0 else { return code }
        // libasound's own explanation (kept off standard error) says more than the errno: "Unknown PCM default".
        let detail = alsa.takeLibraryMessage().map { " (ALSA: \($0))" } ?? ""
        throw ALSAError(
            operation: operation, device: device, code: code, message: alsa.errorDescription(code) + detail)
    }

    private static func failure(_ operation: String, _ device: String, _ reason: String) -> ALSAError {
        ALSAError(operation: operation, device: device, code: 0, message: reason)
    }
}
