import Foundation
import XCTest

@testable import SleepAnalysis

/// An events model file taken apart, for tests that edit model files: its JSON header (without the tensor table
/// and checksum) and its tensors.
struct EventModelFileParts {
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
        let hash = EventModelFile.fnv1a64(payload[...])
        var full = header
        full["tensors"] = tensors.map { ["name": $0.name, "shape": $0.shape] as [String: Any] }
        full["payloadBytes"] = payload.count
        full["payloadFNV1a64"] = String(format: "%016llx", hash)
        let json = [UInt8](try JSONSerialization.data(withJSONObject: full))
        var out = Array("SAEVTMDL".utf8)
        for value in [version, UInt32(json.count)] { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        return Data(out + json + payload)
    }

    /// The bundled model taken apart.
    static func bundled() throws -> EventModelFileParts {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "events", withExtension: "bin", subdirectory: "Models"))
        return try EventModelFileParts(Data(contentsOf: url))
    }

    /// The bundled model's first network alone: a single-network file (no ensemble headers, no member tensors).
    static func bundledFirstNetwork() throws -> EventModelFileParts {
        var single = try bundled()
        for key in ["members", "cascadeGate", "memberConvolutions", "memberTypes"] { single.header[key] = nil }
        single.tensors.removeAll { $0.name.hasPrefix("member") }
        return single
    }

    /// The same file with the output layer's bias of one class raised, so that the network's outputs differ.
    func raisingOutputBias(of className: String, by amount: Float) throws -> EventModelFileParts {
        var changed = self
        let outputBias = try XCTUnwrap(tensors.last { $0.name.hasPrefix("dense") && $0.name.hasSuffix(".bias") })
        let index = try XCTUnwrap(changed.tensors.firstIndex { $0.name == outputBias.name })
        let output = try XCTUnwrap((header["classes"] as? [String])?.firstIndex(of: className))
        changed.tensors[index].values[output] += amount
        return changed
    }

    /// Whether a tensor belongs to a network (convolutions and dense layers), as opposed to shared tensors.
    static func isNetworkTensor(_ name: String) -> Bool { name.hasPrefix("conv") || name.hasPrefix("dense") }
}
