import CALSA
import CALSAMessages
import Foundation

/// Every ALSA call the live source makes, as replaceable function references (in the manner of swift-system's
/// `Syscalls`): `system` calls libasound; a test can swap single entries to inject failures such as an
/// overrun (`-EPIPE`) or a vanished device (`-ENODEV`) without hardware. Each mirrors its C function; `name`
/// strings are passed as C strings; pointers are ALSA's opaque handles.
struct ALSAFunctions: Sendable {
    // Configuration held in memory (for `snd_pcm_open_lconf`).
    var configTop: @Sendable (_ config: UnsafeMutablePointer<OpaquePointer?>) -> Int32
    var inputBufferOpen: @Sendable (_ input: UnsafeMutablePointer<OpaquePointer?>, _ text: String) -> Int32
    var configLoad: @Sendable (_ config: OpaquePointer, _ input: OpaquePointer) -> Int32
    var inputClose: @Sendable (_ input: OpaquePointer) -> Int32
    var configDelete: @Sendable (_ config: OpaquePointer) -> Int32

    // Opening and closing.
    var pcmOpen: @Sendable (_ pcm: UnsafeMutablePointer<OpaquePointer?>, _ name: String) -> Int32
    var pcmOpenWithConfig:
        @Sendable (
            _ pcm: UnsafeMutablePointer<OpaquePointer?>, _ name: String, _ config: OpaquePointer
        ) -> Int32
    /// Switches a PCM opened with `SND_PCM_NONBLOCK` (so a busy device fails at once instead of blocking the
    /// opener) back to blocking reads.
    var setBlocking: @Sendable (_ pcm: OpaquePointer) -> Int32
    var pcmClose: @Sendable (_ pcm: OpaquePointer) -> Int32

    // Hardware parameters.
    var hwParamsMalloc: @Sendable (_ params: UnsafeMutablePointer<OpaquePointer?>) -> Int32
    var hwParamsFree: @Sendable (_ params: OpaquePointer) -> Void
    var hwParamsAny: @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer) -> Int32
    var hwParamsSetAccess:
        @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ access: snd_pcm_access_t) -> Int32
    var hwParamsTestFormat:
        @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ format: snd_pcm_format_t) -> Int32
    var hwParamsSetFormat:
        @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ format: snd_pcm_format_t) -> Int32
    var hwParamsTestChannels: @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ channels: UInt32) -> Int32
    var hwParamsSetChannels: @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ channels: UInt32) -> Int32
    var hwParamsTestRate: @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ rate: UInt32) -> Int32
    var hwParamsSetRate: @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer, _ rate: UInt32) -> Int32
    var hwParamsSetRateNear:
        @Sendable (
            _ pcm: OpaquePointer, _ params: OpaquePointer, _ rate: UnsafeMutablePointer<UInt32>
        ) -> Int32
    var hwParamsSetBufferTimeNear:
        @Sendable (
            _ pcm: OpaquePointer, _ params: OpaquePointer, _ microseconds: UnsafeMutablePointer<UInt32>
        ) -> Int32
    var hwParamsSetPeriodTimeNear:
        @Sendable (
            _ pcm: OpaquePointer, _ params: OpaquePointer, _ microseconds: UnsafeMutablePointer<UInt32>
        ) -> Int32
    var hwParamsInstall: @Sendable (_ pcm: OpaquePointer, _ params: OpaquePointer) -> Int32
    var hwParamsGetRate: @Sendable (_ params: OpaquePointer, _ rate: UnsafeMutablePointer<UInt32>) -> Int32
    var hwParamsGetPeriodSize: @Sendable (_ params: OpaquePointer, _ frames: UnsafeMutablePointer<UInt>) -> Int32

    // Running.
    var prepare: @Sendable (_ pcm: OpaquePointer) -> Int32
    var start: @Sendable (_ pcm: OpaquePointer) -> Int32
    var wait: @Sendable (_ pcm: OpaquePointer, _ timeoutMilliseconds: Int32) -> Int32
    var readInterleaved: @Sendable (_ pcm: OpaquePointer, _ buffer: UnsafeMutableRawPointer, _ frames: UInt) -> Int
    var recover: @Sendable (_ pcm: OpaquePointer, _ error: Int32) -> Int32
    var state: @Sendable (_ pcm: OpaquePointer) -> snd_pcm_state_t

    // Messages.
    var errorDescription: @Sendable (_ code: Int32) -> String
    /// Keeps libasound's own messages (`ALSA lib …`) off standard error, for `takeLibraryMessage`.
    var keepLibraryMessages: @Sendable () -> Void
    /// libasound's last own message since the previous call (such as `Unknown PCM default`), or nil.
    var takeLibraryMessage: @Sendable () -> String?

    /// The real thing: libasound.
    static let system = ALSAFunctions(
        configTop: { snd_config_top($0) },
        inputBufferOpen: { input, text in
            text.withCString { snd_input_buffer_open(input, $0, strlen($0)) }
        },
        configLoad: { snd_config_load($0, $1) },
        inputClose: { snd_input_close($0) },
        configDelete: { snd_config_delete($0) },
        pcmOpen: { pcm, name in snd_pcm_open(pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) },
        pcmOpenWithConfig: { pcm, name, config in
            snd_pcm_open_lconf(pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK, config)
        },
        setBlocking: { snd_pcm_nonblock($0, 0) },
        pcmClose: { snd_pcm_close($0) },
        hwParamsMalloc: { snd_pcm_hw_params_malloc($0) },
        hwParamsFree: { snd_pcm_hw_params_free($0) },
        hwParamsAny: { snd_pcm_hw_params_any($0, $1) },
        hwParamsSetAccess: { snd_pcm_hw_params_set_access($0, $1, $2) },
        hwParamsTestFormat: { snd_pcm_hw_params_test_format($0, $1, $2) },
        hwParamsSetFormat: { snd_pcm_hw_params_set_format($0, $1, $2) },
        hwParamsTestChannels: { snd_pcm_hw_params_test_channels($0, $1, $2) },
        hwParamsSetChannels: { snd_pcm_hw_params_set_channels($0, $1, $2) },
        hwParamsTestRate: { snd_pcm_hw_params_test_rate($0, $1, $2, 0) },
        hwParamsSetRate: { snd_pcm_hw_params_set_rate($0, $1, $2, 0) },
        hwParamsSetRateNear: { pcm, params, rate in
            var direction: Int32 = 0
            return snd_pcm_hw_params_set_rate_near(pcm, params, rate, &direction)
        },
        hwParamsSetBufferTimeNear: { pcm, params, microseconds in
            var direction: Int32 = 0
            return snd_pcm_hw_params_set_buffer_time_near(pcm, params, microseconds, &direction)
        },
        hwParamsSetPeriodTimeNear: { pcm, params, microseconds in
            var direction: Int32 = 0
            return snd_pcm_hw_params_set_period_time_near(pcm, params, microseconds, &direction)
        },
        hwParamsInstall: { snd_pcm_hw_params($0, $1) },
        hwParamsGetRate: { params, rate in
            var direction: Int32 = 0
            return snd_pcm_hw_params_get_rate(params, rate, &direction)
        },
        hwParamsGetPeriodSize: { params, frames in
            var direction: Int32 = 0
            return snd_pcm_hw_params_get_period_size(params, frames, &direction)
        },
        prepare: { snd_pcm_prepare($0) },
        start: { snd_pcm_start($0) },
        wait: { snd_pcm_wait($0, $1) },
        readInterleaved: { snd_pcm_readi($0, $1, $2) },
        recover: { snd_pcm_recover($0, $1, 1) },
        state: { snd_pcm_state($0) },
        errorDescription: { String(cString: snd_strerror($0)) },
        keepLibraryMessages: { sa_alsa_keep_library_messages() },
        takeLibraryMessage: {
            var buffer = [CChar](repeating: 0, count: 512)
            let length = sa_alsa_take_library_message(&buffer, buffer.count)
            guard length > 0 else { return nil }
            return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    )
}
