import Foundation
import SleepAnalysis

/// Staging model files: the bytes become a file that `StagingModel.load(from:)` decodes and validates (trees,
/// feature lists, sequence model, clock prior, weights). Rejections must be `modelIntegrityCheckFailed`.
enum StagingModelHarness {
    /// The harness.
    static let harness = FuzzHarness(
        name: "staging-model", summary: "StagingModel.load(from:): a staging model file (staging.json)"
    ) { bytes in
        let url = ScratchDirectory.write(bytes, named: "staging.json")
        do {
            _ = try StagingModel.load(from: url)
            return true
        } catch {
            FuzzContract.requireDocumented(error, harness: "staging-model") {
                if case .modelIntegrityCheckFailed = $0 { true } else { false }
            }
            return false
        }
    }
}
