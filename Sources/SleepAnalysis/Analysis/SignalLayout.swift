import Foundation

/// Which analysis signals the pipeline derives from the source's audio channels.
enum SignalLayout: Sendable, Equatable {
    /// One signal: the mean of the source's channels (one sleeper).
    case mixdown
    /// One signal per source channel (two sleepers: channel 0 is `.primary`, channel 1 `.secondary`).
    case perChannel

    /// The number of signals for a source with `sourceChannelCount` channels.
    func signalCount(sourceChannelCount: Int) -> Int {
        switch self {
        case .mixdown: sourceChannelCount > 0 ? 1 : 0
        case .perChannel: sourceChannelCount
        }
    }
}
