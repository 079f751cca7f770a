import TestSupport
import XCTest

@testable import SleepAnalysis

final class EventClassifierModelTests: XCTestCase {
    private func bundledBytes() throws -> Data {
        guard
            let url = Bundle.module.url(forResource: "events", withExtension: "bin", subdirectory: "Models")
                ?? Bundle.allBundles.lazy.compactMap({
                    $0.url(
                        forResource: "events", withExtension: "bin",
                        subdirectory: "Models")
                }).first
        else {
            return try Data(contentsOf: try XCTUnwrap(Self.repositoryModel))
        }
        return try Data(contentsOf: url)
    }

    private static var repositoryModel: URL? {
        FixturePaths.repositoryRoot.appendingPathComponent("Models/events.bin")
    }

    func test_bundledModel_loads_withEveryTrainedTypeButDigestive() throws {
        let model = try EventClassifierModel.bundled()
        XCTAssertFalse(model.detectableTypes.contains(.digestive))
        XCTAssertTrue(model.detectableTypes.isSuperset(of: EventType.standardTypes))
        XCTAssertEqual(model.signatureProjection.count, 16)
    }

    func test_cInference_matchesTrainingToolReference_within1e4() throws {
        let model = try EventClassifierModel.bundled()
        let classifier = try EventWindowClassifier(model: model, melBandCount: 64)
        let output = classifier.evaluateReference()
        XCTAssertEqual(output.count, model.referenceOutput.count)
        for (got, expected) in zip(output, model.referenceOutput) {
            XCTAssertEqual(got, expected, accuracy: 1e-4)
        }
    }

    func test_load_throwsModelUnavailable_whenFileIsMissing() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).bin")
        XCTAssertThrowsError(try EventClassifierModel.load(from: url)) { error in
            guard case SleepCycleSdkError.modelUnavailable = error else { return XCTFail("got \(error)") }
            XCTAssertTrue(error.localizedDescription.contains(url.path), error.localizedDescription)
        }
    }

    func test_load_throwsIntegrityFailure_whenPayloadIsCorrupted() throws {
        var bytes = [UInt8](try bundledBytes())
        bytes[bytes.count - 7] ^= 0x5A
        XCTAssertThrowsError(try EventClassifierModel(data: Data(bytes))) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
        }
    }

    func test_load_throwsIntegrityFailure_whenTruncatedOrNotAModel() throws {
        let bytes = try bundledBytes()
        for broken in [bytes.prefix(bytes.count / 2), bytes.prefix(10), Data("hello, world, not a model".utf8)] {
            XCTAssertThrowsError(try EventClassifierModel(data: Data(broken))) { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
            }
        }
    }

    /// Headers whose sizes overflow `Int` when multiplied (tensor shapes, dense, convolution, window and signature
    /// sizes) or that name a class twice trapped while loading (found reviewing the parser for its fuzz harness,
    /// issue 23; inputs in Tools/fuzz/regressions/events-model); each is now an integrity failure saying why.
    func test_load_throwsIntegrityFailure_forOverflowingSizesAndDuplicateClasses() throws {
        let expected = [
            "convolution_size_overflow.bin": "invalid convolution sizes",
            "dense_size_overflow.bin": "invalid sizes",
            "duplicate_class.bin": "each named once",
            "signature_size_overflow.bin": "invalid sizes",
            "tensor_shape_product_overflow.bin": "invalid shape",
            "window_size_overflow.bin": "invalid sizes",
        ]
        let folder = FixturePaths.repositoryRoot.appendingPathComponent("Tools/fuzz/regressions/events-model")
        for (file, reason) in expected {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            XCTAssertThrowsError(try EventClassifierModel(data: data), file) { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed(let why) = error else {
                    return XCTFail("\(file): got \(error)")
                }
                XCTAssertTrue(why.contains(reason), "\(file): \(why)")
            }
        }
    }
}
