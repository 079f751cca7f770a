import CALSA
import CALSAMessages
import Foundation

/// An ALSA capture device (one PCM of a sound card that can record), as `sleepanalysis record --list-devices`
/// shows it and `createLiveDataSource(device:)` takes it.
public struct AudioCaptureDevice: Sendable, Equatable {
    /// The name to capture from: `plughw:CARD=<card id>,DEV=<device>` (ALSA converts rate and format).
    public var name: String
    /// The card's and the device's names, such as `HDA Intel PCH: ALC892 Analog`.
    public var description: String

    /// Every capture device of every sound card, found through ALSA's control interface (`snd_card_next`,
    /// `snd_ctl_pcm_next_device`, `snd_ctl_pcm_info`); empty when the machine has no sound card. libasound's own
    /// messages are kept off standard error.
    ///
    /// - Returns: The devices, by card and device number.
    public static func all() -> [AudioCaptureDevice] {
        sa_alsa_keep_library_messages()
        var devices: [AudioCaptureDevice] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0, card >= 0 {
            devices += captureDevices(ofCard: card)
        }
        return devices
    }

    /// The capture devices of card number `card`.
    private static func captureDevices(ofCard card: Int32) -> [AudioCaptureDevice] {
        var control: OpaquePointer?
        guard snd_ctl_open(&control, "hw:\(card)", 0) == 0, let control else { return [] }
        defer { snd_ctl_close(control) }
        var cardInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&cardInfo) == 0, let cardInfo else { return [] }
        defer { snd_ctl_card_info_free(cardInfo) }
        guard snd_ctl_card_info(control, cardInfo) == 0 else { return [] }
        let cardId = String(cString: snd_ctl_card_info_get_id(cardInfo))
        let cardName = String(cString: snd_ctl_card_info_get_name(cardInfo))
        var pcmInfo: OpaquePointer?
        guard snd_pcm_info_malloc(&pcmInfo) == 0, let pcmInfo else { return [] }
        defer { snd_pcm_info_free(pcmInfo) }
        var devices: [AudioCaptureDevice] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(control, &device) == 0, device >= 0 {
            snd_pcm_info_set_device(pcmInfo, UInt32(device))
            snd_pcm_info_set_subdevice(pcmInfo, 0)
            snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_CAPTURE)
            // Fails for a device that only plays.
            guard snd_ctl_pcm_info(control, pcmInfo) == 0 else { continue }
            devices.append(
                AudioCaptureDevice(
                    name: "plughw:CARD=\(cardId),DEV=\(device)",
                    description: "\(cardName): \(String(cString: snd_pcm_info_get_name(pcmInfo)))"))
        }
        return devices
    }
}
