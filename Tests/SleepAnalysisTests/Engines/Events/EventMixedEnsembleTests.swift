import Foundation
import XCTest

@testable import SleepAnalysis

/// Ensembles whose networks have different convolutional fronts (header `memberConvolutions`, each such member with
/// its own patch standardisation) and per-type member sets (header `memberTypes`): each output is the mean of the
/// members listed for its type, and malformed headers are refused.
final class EventMixedEnsembleTests: XCTestCase {
    /// A network of another front: kernel-3 convolutions over time reading all 64 mel bands (4 and 6 channels),
    /// with random weights and its own patch standardisation, and the bundled network's later dense layers.
    private func overTimeNetwork(from single: EventModelFileParts) throws -> EventModelFileParts {
        var generator = SplitMix64(seed: 7)
        func random(_ count: Int, scale: Float) -> [Float] {
            (0..<count).map { _ in Float.random(in: -scale...scale, using: &generator) }
        }
        var network = single
        let statistics = try XCTUnwrap(single.header["featureCount"] as? Int)
        network.header["convolution"] = ["melBands": 64, "bandGroup": 1, "frameGroup": 4, "channels": [4, 6]]
        let hidden = try XCTUnwrap(single.tensors.first { $0.name == "dense0.bias" }).values.count
        network.tensors.removeAll { ["conv", "patch", "dense0."].contains(where: $0.name.hasPrefix) }
        network.tensors += [
            ("conv0.weight", [4, 64, 3], random(4 * 64 * 3, scale: 0.2)), ("conv0.bias", [4], random(4, scale: 0.1)),
            ("conv1.weight", [6, 4, 3], random(6 * 4 * 3, scale: 0.4)), ("conv1.bias", [6], random(6, scale: 0.1)),
            ("patchMean", [64], random(64, scale: 0.5)), ("patchStd", [64], random(64, scale: 0.5).map { 1 + $0 }),
            ("dense0.weight", [hidden, 12 + statistics], random(hidden * (12 + statistics), scale: 0.1)),
            ("dense0.bias", [hidden], random(hidden, scale: 0.1)),
        ]
        return network
    }

    /// The networks as members of one file, the first one's front as `convolution`.
    private func ensemble(_ networks: [EventModelFileParts]) -> EventModelFileParts {
        var parts = networks[0]
        parts.header["members"] = networks.count
        parts.header["memberConvolutions"] = networks.map { $0.header["convolution"] as Any }
        for (member, network) in networks.enumerated().dropFirst() {
            parts.tensors += network.tensors
                .filter { EventModelFileParts.isNetworkTensor($0.name) || $0.name.hasPrefix("patch") }
                .map { ("member\(member)." + $0.name, $0.shape, $0.values) }
        }
        return parts
    }

    private func reference(_ parts: EventModelFileParts) throws -> [Float] {
        let model = try EventClassifierModel(data: try parts.data())
        return try EventWindowClassifier(model: model, melBandCount: 64).evaluateReference()
    }

    private func assertIntegrityFailure(_ parts: EventModelFileParts, _ message: String, line: UInt = #line) {
        XCTAssertThrowsError(try EventClassifierModel(data: try parts.data()), message, line: line) { error in
            guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else {
                return XCTFail("got \(error)", line: line)
            }
        }
    }

    func test_mixedEnsemble_averagesNetworksOfDifferentFronts() throws {
        // Given a band-and-time network and a network over time with its own patch standardisation
        let bandTime = try EventModelFileParts.bundledFirstNetwork()
        let overTime = try overTimeNetwork(from: bandTime)
        let first = try reference(bandTime)
        let second = try reference(overTime)
        XCTAssertNotEqual(first, second)
        // When both are members of one file
        let mixed = ensemble([bandTime, overTime])
        let model = try EventClassifierModel(data: try mixed.data())
        // Then each member keeps its own front and the output is the mean of theirs
        XCTAssertEqual(model.members.map { $0.convolution?.bandTime }, [true, false])
        XCTAssertEqual(model.members.map { $0.convolution?.bandGroup }, [2, 1])
        XCTAssertEqual(model.members[1].layerSizes.first, 12 + model.featureCount)
        let mean = try reference(mixed)
        for index in mean.indices {
            XCTAssertEqual(mean[index], (first[index] + second[index]) / 2, accuracy: 1e-6)
        }
    }

    func test_memberTypes_takeATypesOutputFromItsMembersOnly() throws {
        // Given three networks: the bundled one, a copy that hears more snoring, one of another front
        let bandTime = try EventModelFileParts.bundledFirstNetwork()
        let louder = try bandTime.raisingOutputBias(of: "snoring", by: 3)
        let overTime = try overTimeNetwork(from: bandTime)
        let outputs = try [bandTime, louder, overTime].map(reference)
        // When snoring is taken from the first two members only
        var parts = ensemble([bandTime, louder, overTime])
        parts.header["memberTypes"] = ["snoring": [0, 1]]
        let combined = try reference(parts)
        // Then snoring is the mean of those two, every other output the mean of all three
        let classes = try XCTUnwrap(parts.header["classes"] as? [String])
        let snoring = try XCTUnwrap(classes.firstIndex(of: "snoring"))
        XCTAssertEqual(combined[snoring], (outputs[0][snoring] + outputs[1][snoring]) / 2, accuracy: 1e-6)
        for index in combined.indices where index != snoring {
            XCTAssertEqual(
                combined[index], (outputs[0][index] + outputs[1][index] + outputs[2][index]) / 3,
                accuracy: 1e-6)
        }
        XCTAssertNotEqual(combined[snoring], (outputs[0][snoring] + outputs[1][snoring] + outputs[2][snoring]) / 3)
    }

    func test_memberTypes_withACascadeGate_leaveTheFirstMembersOutputWhereTheGateHolds() throws {
        let bandTime = try EventModelFileParts.bundledFirstNetwork()
        let first = try reference(bandTime)
        let heard = try XCTUnwrap(first.dropFirst().max())
        var parts = ensemble([
            bandTime, try bandTime.raisingOutputBias(of: "snoring", by: 3), try overTimeNetwork(from: bandTime),
        ])
        parts.header["memberTypes"] = ["snoring": [0, 1]]
        parts.header["cascadeGate"] = min(0.999, Double(heard) * 1.1 + 0.001)
        XCTAssertEqual(try reference(parts), first)
    }

    func test_load_refusesMalformedMemberFrontsAndSets() throws {
        let bandTime = try EventModelFileParts.bundledFirstNetwork()
        let overTime = try overTimeNetwork(from: bandTime)
        let valid = ensemble([bandTime, overTime])
        XCTAssertNoThrow(try EventClassifierModel(data: try valid.data()))

        var missingFront = valid
        missingFront.header["memberConvolutions"] = [bandTime.header["convolution"] as Any]
        assertIntegrityFailure(missingFront, "one front for two members")
        var otherFirst = valid
        otherFirst.header["memberConvolutions"] = [
            overTime.header["convolution"] as Any,
            overTime.header["convolution"] as Any,
        ]
        assertIntegrityFailure(otherFirst, "the first front differs from `convolution`")
        var otherBands = valid
        let thirtyTwoBands: [String: Any] = ["melBands": 32, "bandGroup": 1, "frameGroup": 4, "channels": [4, 6]]
        otherBands.header["memberConvolutions"] = [bandTime.header["convolution"] as Any, thirtyTwoBands]
        assertIntegrityFailure(otherBands, "a member reading other mel bands")
        var missingPatch = valid
        missingPatch.tensors.removeAll { $0.name == "member1.patchStd" }
        assertIntegrityFailure(missingPatch, "a member with half its own patch standardisation")
        for sets in [["snoring": [1]], ["snoring": [0, 2]], ["digestive": [0]], ["none": [0]]] {
            var parts = valid
            parts.header["memberTypes"] = sets
            assertIntegrityFailure(parts, "member sets \(sets)")
        }
    }
}
