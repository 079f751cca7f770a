import Foundation

/// Base64url without padding (RFC 4648 §5), as licence keys use.
///
/// Decoding accepts only the canonical form, the text `encode` produces: the characters `A–Z a–z 0–9 - _`, no
/// `=` padding, a length that is not 4n+1, and zero in the unused low bits of the last character. Every byte
/// string therefore has exactly one text form, and a key cannot be altered into another string that decodes to
/// the same bytes.
enum Base64URL {
    /// Why text is not canonical base64url.
    enum DecodingError: Error, Hashable, CustomStringConvertible {
        /// A character outside the base64url alphabet, at this (zero-based, UTF-8) offset.
        case invalidCharacter(offset: Int)
        /// An `=` padding character, at this offset.
        case padding(offset: Int)
        /// A length of 4n+1 characters, which no byte string encodes to.
        case impossibleLength(Int)
        /// The last character's unused low bits are not zero.
        case nonZeroPaddingBits

        var description: String {
            switch self {
            case .invalidCharacter(let offset):
                "character \(offset + 1) is not in the base64url alphabet (A-Z, a-z, 0-9, '-', '_')"
            case .padding(let offset):
                "character \(offset + 1) is '=' padding, which base64url without padding never has"
            case .impossibleLength(let length):
                "its length, \(length) characters, is one more than a multiple of 4"
            case .nonZeroPaddingBits:
                "the unused low bits of its last character are not zero"
            }
        }
    }

    /// Encodes `data`.
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes canonical base64url text.
    ///
    /// - Parameter text: The text.
    /// - Returns: The bytes it encodes (empty for empty text).
    /// - Throws: `DecodingError` saying how the text is not canonical base64url.
    static func decode(_ text: Substring) throws(DecodingError) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        // The bits read but not yet output, in the low `pending` bits of `accumulator`.
        var accumulator: UInt32 = 0
        var pending = 0
        for (offset, character) in text.utf8.enumerated() {
            guard let value = sextet(character) else {
                if character == UInt8(ascii: "=") { throw .padding(offset: offset) }
                throw .invalidCharacter(offset: offset)
            }
            accumulator = accumulator << 6 | UInt32(value)
            pending += 6
            if pending >= 8 {
                pending -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(pending)))
                accumulator &= (1 << UInt32(pending)) - 1
            }
        }
        // 4n characters leave no bits, 4n+2 leave 4 and 4n+3 leave 2; 4n+1 leave 6, a character that encodes
        // no whole byte.
        guard pending < 6 else { throw .impossibleLength(text.utf8.count) }
        guard accumulator == 0 else { throw .nonZeroPaddingBits }
        return Data(bytes)
    }

    /// The 6-bit value of a base64url character, or nil for any other byte.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
