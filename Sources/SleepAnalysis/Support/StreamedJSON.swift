import Foundation

/// Writes a value as a pretty-printed, key-sorted `JSONEncoder` would, byte for byte, without holding the whole
/// document: the members of its outer objects (three levels) and the elements of their arrays are encoded one at a
/// time with that encoder and handed to a sink in blocks.
///
/// `JSONEncoder` builds the whole document in memory before it gives it back: for a 24-hour night's report about
/// 20 MiB, more than the analysis itself needs. Here the largest piece held at once is one array element (an event,
/// a breathing rate, an epoch). A value whose `encode(to:)` uses nested containers, a super-encoder or no keyed
/// container at all is encoded whole, as before.
package enum StreamedJSON {
    /// Writes `value` encoded by `encoder` to `sink`, in blocks of about 64 KiB, in the same bytes as
    /// `encoder.encode(value)`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` unless `encoder` pretty-prints with sorted keys (the
    ///   layout streamed here); the encoder's errors; the sink's errors.
    package static func write(
        _ value: some Encodable, encoder: JSONEncoder, to sink: (Data) throws -> Void
    ) throws {
        guard encoder.outputFormatting.contains(.prettyPrinted), encoder.outputFormatting.contains(.sortedKeys) else {
            throw SleepCycleSdkError.invalidConfiguration("streamed JSON needs a pretty-printed, key-sorted encoder")
        }
        try withoutActuallyEscaping(sink) { sink in
            var output = BlockOutput(sink: sink)
            try stream(value, depth: 0, encoder: encoder, into: &output)
            try output.flush()
        }
    }

    /// How many levels of objects are opened member by member.
    private static let objectLevels = 3
    private static let blockSize = 1 << 16

    private static func stream(
        _ value: any Encodable, depth: Int, encoder: JSONEncoder, into output: inout BlockOutput
    ) throws {
        let indent = String(repeating: "  ", count: depth)
        if depth < objectLevels, let members = MemberCapture.members(of: value) {
            try output.append("{\n")
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { try output.append(",\n") }
                try output.append(indent + "  ")
                try output.append(try encoder.encode(member.key))
                try output.append(" : ")
                switch member.value {
                case .null: try output.append("null")
                case .value(let memberValue): try stream(memberValue, depth: depth + 1, encoder: encoder, into: &output)
                }
            }
            try output.append("\n" + indent + "}")
        } else if depth < objectLevels + 1, let elements = value as? [any Encodable] {
            try output.append("[\n")
            for (index, element) in elements.enumerated() {
                if index > 0 { try output.append(",\n") }
                try output.append(indent + "  ")
                try output.append(indented(try encoder.encode(element), depth: depth + 1))
            }
            try output.append("\n" + indent + "]")
        } else {
            try output.append(indented(try encoder.encode(value), depth: depth))
        }
    }

    /// A document encoded on its own, laid out to stand `depth` levels in: every line after the first indented,
    /// except the empty line inside an empty array or object (JSON strings hold no raw line breaks, so every line
    /// break is the layout's).
    private static func indented(_ data: Data, depth: Int) -> Data {
        let newline = UInt8(ascii: "\n")
        guard depth > 0, data.contains(newline) else { return data }
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: 2 * depth)
        var out = Data()
        out.reserveCapacity(data.count + data.count / 8)
        var previous: UInt8 = 0
        for byte in data {
            if previous == newline && byte != newline { out.append(contentsOf: indent) }
            out.append(byte)
            previous = byte
        }
        return out
    }

    /// Bytes gathered into blocks for the sink.
    private struct BlockOutput {
        let sink: (Data) throws -> Void
        var block = Data()

        mutating func append(_ text: String) throws { try append(Data(text.utf8)) }

        mutating func append(_ data: Data) throws {
            block.append(data)
            if block.count >= StreamedJSON.blockSize { try flush() }
        }

        mutating func flush() throws {
            guard !block.isEmpty else { return }
            try sink(block)
            block.removeAll(keepingCapacity: true)
        }
    }
}

/// The members a value's `encode(to:)` puts in its keyed container, without encoding them.
private final class MemberCapture: Encoder {
    enum Member {
        case null
        case value(any Encodable)
    }

    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var members: [String: Member] = [:]
    /// Set when the value asked for something a member list cannot stand for.
    var unsupported = false

    /// The members of `value` when it encodes as one flat keyed container; nil otherwise.
    static func members(of value: any Encodable) -> [String: Member]? {
        let capture = MemberCapture()
        guard (try? value.encode(to: capture)) != nil, !capture.unsupported, capture.keyed else { return nil }
        return capture.members
    }

    private var keyed = false

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        keyed = true
        return KeyedEncodingContainer(Container<Key>(capture: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        unsupported = true
        return Refused(capture: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        unsupported = true
        return Refused(capture: self)
    }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let capture: MemberCapture
        var codingPath: [any CodingKey] { [] }

        func add(_ value: any Encodable, _ key: Key) { capture.members[key.stringValue] = .value(value) }

        mutating func encodeNil(forKey key: Key) throws { capture.members[key.stringValue] = .null }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { add(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { add(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { add(value, key) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            capture.unsupported = true
            return KeyedEncodingContainer(Container<NestedKey>(capture: MemberCapture()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            capture.unsupported = true
            return Refused(capture: capture)
        }

        mutating func superEncoder() -> any Encoder {
            capture.unsupported = true
            return MemberCapture()
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            capture.unsupported = true
            return MemberCapture()
        }
    }

    /// What an unkeyed or single-value request gets: it takes everything and marks the capture unsupported.
    private struct Refused: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let capture: MemberCapture
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(capture: MemberCapture()))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { MemberCapture() }
    }
}
