import Foundation

/// A failed ALSA call: which call, on which device, and ALSA's negative error code. The one place where ALSA
/// errors become SDK errors is `sdkError`.
struct ALSAError: Error, Equatable {
    /// The ALSA function (or step) that failed, such as `snd_pcm_readi`.
    var operation: String
    /// The PCM device name.
    var device: String
    /// ALSA's error code (a negative errno), or 0 for a failure that is ours (no usable format).
    var code: Int32
    /// ALSA's description of `code`, or our reason when `code` is 0.
    var message: String

    /// True when the code says the device went away (unplugged, driver gone), as opposed to a passing fault.
    var isDeviceGone: Bool { [-ENODEV, -ENXIO, -EBADFD, -ENOENT, -EIO].contains(code) }

    /// The error as the SDK reports it: always `SleepCycleSdkError.dataSourceFailure`.
    var sdkError: SleepCycleSdkError {
        let detail = code == 0 ? message : "\(message) (error \(code))"
        let prefix = isDeviceGone ? "the audio device '\(device)' is unavailable" : "ALSA failed on '\(device)'"
        return .dataSourceFailure("\(prefix): \(operation): \(detail)")
    }
}
