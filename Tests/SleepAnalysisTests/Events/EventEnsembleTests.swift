import Foundation
import XCTest

@testable import SleepAnalysis

/// Model files with several networks (header `members`): the classifier averages the members' outputs, and a file
/// that announces members it does not hold is refused.
final class EventEnsembleTests: XCTestCase {
    /// A model file taken apart: its JSON header (without the tensor table and checksum) and its tensors.
    private struct ModelFileParts {
        var version: UInt32
        var header: [String: Any]
        var tensors: [(name: String, shape: [Int], values: [Float])]

        init(_ data: Data) throws {
            let bytes = [UInt8](data)
            func uint32(_ offset: Int) -> UInt32 {
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                    | UInt32(bytes[offset + 3]) << 24
            }
            version = uint32(8)
            let headerLength = Int(uint32(12))
            header = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(bytes[16..<(16 + headerLength)])) as? [String: Any])
            let table = try XCTUnwrap(header["tensors"] as? [[String: Any]])
            var offset = 16 + headerLength
            tensors = []
            for entry in table {
                let name = try XCTUnwrap(entry["name"] as? String)
                let shape = try XCTUnwrap(entry["shape"] as? [Int])
                let count = shape.reduce(1, *)
                let values = (0..<count).map { Float(bitPattern: uint32(offset + 4 * $0)) }
                tensors.append((name, shape, values))
                offset += 4 * count
            }
            for key in ["tensors", "payloadBytes", "payloadFNV1a64"] { header[key] = nil }
        }

        /// The file's bytes, with the tensor table, payload size and checksum made anew.
        func data() throws -> Data {
            var payload: [UInt8] = []
            for tensor in tensors {
                for value in tensor.values { withUnsafeBytes(of: value.bitPattern.littleEndian) { payload += $0 } }
            }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in payload { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            var full = header
            full["tensors"] = tensors.map { ["name": $0.name, "shape": $0.shape] as [String: Any] }
            full["payloadBytes"] = payload.count
            full["payloadFNV1a64"] = String(format: "%016llx", hash)
            let json = [UInt8](try JSONSerialization.data(withJSONObject: full))
            var out = Array("SAEVTMDL".utf8)
            for value in [version, UInt32(json.count)] { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
            return Data(out + json + payload)
        }

        /// Whether a tensor belongs to a network (convolutions and dense layers), as opposed to shared tensors.
        static func isNetworkTensor(_ name: String) -> Bool { name.hasPrefix("conv") || name.hasPrefix("dense") }
    }

    private func bundledParts() throws -> ModelFileParts {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "events", withExtension: "bin", subdirectory: "Models"))
        return try ModelFileParts(Data(contentsOf: url))
    }

    /// The bundled model's first network alone, and the same network with the output bias of snoring raised.
    private func singleAndShifted() throws -> (single: ModelFileParts, shifted: ModelFileParts, outputBias: String) {
        var single = try bundledParts()
        single.header["members"] = nil
        single.tensors.removeAll { $0.name.hasPrefix("member") }
        let outputBias = try XCTUnwrap(single.tensors.last { $0.name.hasPrefix("dense") && $0.name.hasSuffix(".bias") })
            .name
        var shifted = single
        let index = try XCTUnwrap(shifted.tensors.firstIndex { $0.name == outputBias })
        let snoring = try XCTUnwrap((single.header["classes"] as? [String])?.firstIndex(of: "snoring"))
        shifted.tensors[index].values[snoring] += 3
        return (single, shifted, outputBias)
    }

    func test_ensemble_averagesItsMembersOutputs() throws {
        let (single, shifted, _) = try singleAndShifted()
        var ensemble = single
        ensemble.header["members"] = 2
        ensemble.tensors += shifted.tensors.filter { ModelFileParts.isNetworkTensor($0.name) }
            .map { ("member1." + $0.name, $0.shape, $0.values) }
        func reference(_ parts: ModelFileParts) throws -> [Float] {
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
        let (single, _, _) = try singleAndShifted()
        for count in [2, 0, 9] {
            var parts = single
            parts.header["members"] = count
            XCTAssertThrowsError(try EventClassifierModel(data: try parts.data()), "members \(count)") { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed = error else { return XCTFail("got \(error)") }
            }
        }
    }
}
