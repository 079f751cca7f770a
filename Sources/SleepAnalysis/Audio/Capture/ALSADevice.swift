import Foundation

/// Where a live source captures from.
enum ALSADevice: Sendable, Equatable {
    /// A PCM named in the system's ALSA configuration (`default`, `hw:1,0`, `plughw:CARD=Mic`, …).
    case named(String)
    /// A PCM named `pcmName` in the given ALSA configuration text, loaded in memory instead of the system's
    /// (`snd_config_load` + `snd_pcm_open_lconf`): for tests, through the `file` plugin.
    case configuration(text: String, pcmName: String)

    /// The PCM's name, for messages.
    var name: String {
        switch self {
        case .named(let name): name
        case .configuration(_, let pcmName): pcmName
        }
    }
}
