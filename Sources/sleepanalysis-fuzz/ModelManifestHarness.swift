import Foundation
import SleepAnalysis

/// Model store records: the bytes are decoded as a store's `manifest.json` (`ModelManifest`, then each entry's
/// `validate()`) and, written as `installed.json`, read by `InstalledModels.load(from:)`. Rejections must be
/// `resourceDownloadFailed`; an unreadable installed record is nil.
enum ModelManifestHarness {
    /// Where the manifest is said to come from, for messages.
    private static let source = URL(fileURLWithPath: "/fuzz/manifest.json")

    /// The harness.
    static let harness = FuzzHarness(
        name: "model-manifest", summary: "ModelManifest and InstalledModels.load: a model store's JSON records"
    ) { bytes in
        var accepted = false
        do {
            let manifest = try ModelManifest(decoding: Data(bytes), source: source)
            for entry in manifest.entries { try entry.validate() }
            accepted = manifest.entry(named: "events") != nil
        } catch {
            requireDownloadFailure(error)
        }
        _ = ScratchDirectory.write(bytes, named: InstalledModels.fileName)
        guard let installed = InstalledModels.load(from: ScratchDirectory.url) else { return accepted }
        do {
            for entry in installed.models { try entry.validate() }
            return true
        } catch {
            requireDownloadFailure(error)
            return accepted
        }
    }

    private static func requireDownloadFailure(_ error: any Error) {
        FuzzContract.requireDocumented(error, harness: "model-manifest") {
            if case .resourceDownloadFailed = $0 { true } else { false }
        }
    }
}
