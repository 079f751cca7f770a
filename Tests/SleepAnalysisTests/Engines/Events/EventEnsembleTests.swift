import Foundation
import XCTest

@testable import SleepAnalysis

/// Model files with several networks (header `members`): the classifier averages the members' outputs (with a
/// cascade gate, only where the first member hears an event), and a file that announces members it does not hold,
/// or an invalid gate, is refused.
final class EventEnsembleTests: XCTestCase {
    /// The bundled model's first network alone, and the same network with the output bias of snoring raised.
    private func singleAndShifted() throws -> (single: EventModelFileParts, shifted: EventModelFileParts) {
        let single = try EventModelFileParts.bundledFirstNetwork()
        return (single, try single.raisingOutputBias(of: "snoring", by: 3))
    }

    /// The two networks as members of one file.
    private func pair(_ single: EventModelFileParts, _ shifted: EventModelFileParts) -> EventModelFileParts {
        var ensemble = single
        ensemble.header["members"] = 2
        ensemble.tensors += shifted.tensors.filter { EventModelFileParts.isNetworkTensor($0.name) }
            .map { ("member1." + $0.name, $0.shape, $0.values) }
        return ensemble
    }

    private func reference(_ parts: EventModelFileParts) throws -> [Float] {
        let model = try EventClassifierModel(data: try parts.data())
        return try EventWindowClassifier(model: model, melBandCount: 64).evaluateReference()
    }

    func test_ensemble_averagesItsMembersOutputs() throws {
        let (single, shifted) = try singleAndShifted()
        let ensemble = pair(single, shifted)
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

    func test_cascade_runsTheSecondMemberOnlyWhereTheFirstHearsAnEvent() throws {
        let (single, shifted) = try singleAndShifted()
        let first = try reference(single)
        let second = try reference(shifted)
        let heard = try XCTUnwrap(first.dropFirst().max())
        XCTAssertGreaterThan(heard, 0.01, "the reference window must hold an event for the gate to matter")
        var cascade = pair(single, shifted)
        // A gate the first member's reference output reaches: both members run, their mean is the output.
        cascade.header["cascadeGate"] = Double(heard) * 0.9
        let passed = try reference(cascade)
        for index in passed.indices {
            XCTAssertEqual(passed[index], (first[index] + second[index]) / 2, accuracy: 1e-6)
        }
        // A gate above it: the first member's output stands.
        cascade.header["cascadeGate"] = min(0.999, Double(heard) * 1.1 + 0.001)
        XCTAssertEqual(try reference(cascade), first)
        XCTAssertEqual(
            try EventClassifierModel(data: try cascade.data()).cascadeGate,
            Float(min(0.999, Double(heard) * 1.1 + 0.001)))
    }

    func test_load_refusesAGateOutsideZeroToOne_orWithOneMember() throws {
        let (single, shifted) = try singleAndShifted()
        for gate in [0.0, 1.0, -0.2, 1.5] {
            var parts = pair(single, shifted)
            parts.header["cascadeGate"] = gate
            XCTAssertThrowsError(try EventClassifierModel(data: try parts.data()), "gate \(gate)") { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
            }
        }
        var lone = single
        lone.header["cascadeGate"] = 0.2
        XCTAssertThrowsError(try EventClassifierModel(data: try lone.data()), "a gate with one member")
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
