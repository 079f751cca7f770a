import Foundation
import SleepAnalysis

/// Event model files: the bytes become a file that `EventClassifierModel.load(from:)` parses (magic, version,
/// JSON header, checksum, tensor table, network shapes, thresholds). Rejections must be
/// `modelIntegrityCheckFailed`.
enum EventModelHarness {
    /// The harness.
    static let harness = FuzzHarness(
        name: "events-model", summary: "EventClassifierModel.load(from:): an events model file (events.bin)"
    ) { bytes in
        let url = ScratchDirectory.write(bytes, named: "events.bin")
        do {
            _ = try EventClassifierModel.load(from: url)
            return true
        } catch {
            FuzzContract.requireDocumented(error, harness: "events-model") {
                if case .modelIntegrityCheckFailed = $0 { true } else { false }
            }
            return false
        }
    }
}
