import Foundation
import XCTest

@testable import SleepAnalysis

/// Model files with several networks (header `members`): the classifier averages the members' outputs, and a file
/// that announces members it does not hold is refused.
final class EventEnsembleTests: XCTestCase {
    /// The bundled model's first network alone, and the same network with the output bias of snoring raised.
    private func singleAndShifted() throws -> (single: EventModelFileParts, shifted: EventModelFileParts) {
        var single = try EventModelFileParts.bundled()
        single.header["members"] = nil
        single.tensors.removeAll { $0.name.hasPrefix("member") }
        let outputBias = try XCTUnwrap(single.tensors.last { $0.name.hasPrefix("dense") && $0.name.hasSuffix(".bias") })
            .name
        var shifted = single
        let index = try XCTUnwrap(shifted.tensors.firstIndex { $0.name == outputBias })
        let snoring = try XCTUnwrap((single.header["classes"] as? [String])?.firstIndex(of: "snoring"))
        shifted.tensors[index].values[snoring] += 3
        return (single, shifted)
    }

    func test_ensemble_averagesItsMembersOutputs() throws {
        let (single, shifted) = try singleAndShifted()
        var ensemble = single
        ensemble.header["members"] = 2
        ensemble.tensors += shifted.tensors.filter { EventModelFileParts.isNetworkTensor($0.name) }
            .map { ("member1." + $0.name, $0.shape, $0.values) }
        func reference(_ parts: EventModelFileParts) throws -> [Float] {
            let model = try EventClassifierModel(data: try parts.data())
            return try EventWindowClassifier(model: model, melBandCount: 64).evaluateReference()
        }
        let first = try reference(single)
        let second = try reference(shifted)
        let mean = try reference(ensemble)
        XCTAssertEqual(try EventClassifierModel(data: try ensemble.data()).members.count, 2)
        XCTAssertNotEqual(first, second)
        for index in mean.indices {
            XCTAssertEqual(mean[index], (first[index] + second[index]) / 2, accuracy: 1e-6)
        }
        XCTAssertEqual(mean.reduce(0, +), 1, accuracy: 1e-4)
    }

    func test_load_refusesMembersWhoseTensorsAreMissing_orAnInvalidCount() throws {
        let single = try singleAndShifted().single
        for count in [2, 0, 9] {
            var parts = single
            parts.header["members"] = count
            XCTAssertThrowsError(try EventClassifierModel(data: try parts.data()), "members \(count)") { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
            }
        }
    }
}
