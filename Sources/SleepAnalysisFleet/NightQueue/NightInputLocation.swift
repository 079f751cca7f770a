import Foundation
import SleepAnalysis

/// How a night's input is kept in the queue's `*_path` columns: a file path as it is, an `http(s)` URL whole.
enum NightInputLocation {
    /// The column text for `url`.
    static func stored(_ url: URL) -> String {
        RemoteInputURL.isRemote(url) ? url.absoluteString : url.path
    }

    /// The input a column holds.
    static func url(stored text: String) -> URL {
        if RemoteInputURL.looksLikeURL(text), let url = URL(string: text), RemoteInputURL.isRemote(url) { return url }
        return URL(fileURLWithPath: text)
    }

    /// Checks the inputs of `night` before it is queued: each is a file URL, or an `http(s)` URL with a host.
    ///
    /// - Throws: `RemoteInputError.unsupportedScheme` or `.malformedURL`.
    static func validate(_ night: NightSubmission) throws {
        for input in [night.audio, night.accelerometer, night.heartRate].compactMap({ $0 }) where !input.isFileURL {
            try RemoteInputURL.validate(input)
        }
    }
}
