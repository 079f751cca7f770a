import Foundation

/// The JSON header of an events model file.
struct EventModelHeader: Decodable {
    /// One tensor's name and shape, in payload order.
    struct Tensor: Decodable {
        var name: String
        var shape: [Int]
    }

    /// The convolutional front of a version-2 model (absent in version 1: the dense layers see the statistics
    /// alone).
    struct Convolution: Decodable, Equatable {
        /// Mel bands per input frame.
        var melBands: Int
        /// Bands averaged into one network input band.
        var bandGroup: Int
        /// Frames averaged into one network input step.
        var frameGroup: Int
        /// Output channels of each convolution.
        var channels: [Int]
        /// Whether the convolutions run over band and time (3 x 3 kernels from one input channel) rather than over
        /// time with the bands as input channels (absent: over time).
        var bandTime: Bool?
    }

    var classes: [String]
    /// The convolutional front (of member 0 when `memberConvolutions` is present).
    var convolution: Convolution?
    /// Networks whose outputs are averaged (absent: one). Member 0's tensors have plain names, member k's are
    /// prefixed `member<k>.`.
    var members: Int?
    /// Each member's convolutional front, when they differ (absent: every member has `convolution`). A member whose
    /// front differs from member 0's has its own patch standardisation (`member<k>.patchMean`, `.patchStd`).
    var memberConvolutions: [Convolution]?
    /// Per-type member sets (absent: every type averages every member that ran): a type listed here is the mean of
    /// the listed members that ran; each set holds member 0.
    var memberTypes: [String: [Int]]?
    /// A cascade over the members (absent: every member runs on every window): the members after the first run only
    /// on windows where the first member's highest event probability reaches this value; on the others the first
    /// member's output stands.
    var cascadeGate: Float?
    var featureCount: Int
    var windowFrames: Int
    var windowHopFrames: Int
    var logFloor: Float
    var hidden: [Int]
    var onThreshold: [String: Float]
    var offThreshold: [String: Float]
    var minDurationSeconds: Double
    /// Minimum durations of particular types (seconds), overriding `minDurationSeconds` for them.
    var minDurationSecondsByType: [String: Double]?
    var mergeGapSeconds: Double
    var signatureDim: Int
    var tensors: [Tensor]
    var payloadBytes: Int
    var payloadFNV1a64: String
}

/// A parsed, checksum-verified events model file: its header and its float32 tensors by name.
struct EventModelFile {
    let header: EventModelHeader
    /// The file format version.
    let version: UInt32
    private let tensors: [String: [Float]]
    private let name: String

    /// Parses and verifies the bytes of a model file.
    ///
    /// - Throws: `SleepCycleSdkError.modelIntegrityCheckFailed` on a wrong magic or version, a truncated file,
    ///   a malformed header or a checksum mismatch.
    init(data: Data, name: String) throws {
        self.name = name
        func fail(_ why: String) -> SleepCycleSdkError { .modelIntegrityCheckFailed("\(name): \(why)") }
        let bytes = [UInt8](data)
        guard bytes.count >= 16, Array(bytes[0..<8]) == EventClassifierModel.magic else {
            throw fail("not a model file")
        }
        version = Self.uint32(bytes, at: 8)
        guard EventClassifierModel.supportedVersions.contains(version) else {
            throw fail("unsupported version \(version)")
        }
        let headerLength = Int(Self.uint32(bytes, at: 12))
        guard bytes.count >= 16 + headerLength else { throw fail("truncated header") }
        do {
            header = try JSONDecoder().decode(EventModelHeader.self, from: Data(bytes[16..<(16 + headerLength)]))
        } catch {
            throw fail("malformed header")
        }
        let payload = bytes[(16 + headerLength)...]
        guard payload.count == header.payloadBytes else {
            throw fail("payload is \(payload.count) bytes, expected \(header.payloadBytes)")
        }
        guard String(format: "%016llx", Self.fnv1a64(payload)) == header.payloadFNV1a64 else {
            throw fail("checksum mismatch")
        }
        var tensors: [String: [Float]] = [:]
        var offset = payload.startIndex
        for tensor in header.tensors {
            var count = 1
            for dimension in tensor.shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
                guard dimension >= 0, !overflow else { throw fail("tensor \(tensor.name) has an invalid shape") }
                count = product
            }
            guard count <= (payload.endIndex - offset) / 4 else { throw fail("tensor table exceeds payload") }
            tensors[tensor.name] = (0..<count).map { Float(bitPattern: Self.uint32(bytes, at: offset + 4 * $0)) }
            offset += 4 * count
        }
        self.tensors = tensors
    }

    /// Whether the file holds a tensor of this name.
    func contains(_ tensorName: String) -> Bool { tensors[tensorName] != nil }

    /// A tensor's values, checked for length and finiteness.
    func tensor(_ tensorName: String, count: Int) throws -> [Float] {
        guard let values = tensors[tensorName], values.count == count, values.allSatisfy(\.isFinite) else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("\(name): tensor \(tensorName) missing or invalid")
        }
        return values
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    /// The payload checksum: 64-bit FNV-1a.
    static func fnv1a64(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
