/// A forward-only reader over the UTF-8 bytes of ISO 8601 text: the one scanner behind the package's date-times
/// and durations.
///
/// It reads ASCII only; any other byte is simply not what the caller expects. It holds the bytes' address, so it
/// lives inside the closure that lent them (`String.withUTF8`, a CSV field).
struct ISO8601Scanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// Starts reading at the first byte.
    ///
    /// - Parameter bytes: The text's UTF-8 bytes.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// True when every byte has been read.
    var isAtEnd: Bool { position == bytes.count }

    /// Reads the next byte, whatever it is.
    ///
    /// - Returns: The byte, or nil at the end.
    mutating func next() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// Reads `character` if it comes next.
    ///
    /// - Parameter character: An ASCII character.
    /// - Returns: Whether it came next (and was read).
    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// Reads an ASCII letter in either case if it comes next.
    ///
    /// - Parameter letter: The upper-case letter.
    /// - Returns: Whether it came next (and was read).
    mutating func takeLetter(_ letter: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] & 0xDF == UInt8(ascii: letter) else { return false }
        position += 1
        return true
    }

    /// Reads `+` or `-` if one comes next.
    ///
    /// - Returns: 1 for `+`, -1 for `-`, nil (nothing read) for anything else.
    mutating func sign() -> Int? {
        if take("+") { return 1 }
        if take("-") { return -1 }
        return nil
    }

    /// Reads exactly `count` decimal digits as a number.
    ///
    /// - Parameter count: How many digits (at most 18).
    /// - Returns: The number, or nil (nothing read) when fewer digits come next.
    mutating func digits(exactly count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + count] {
            guard let digit = Self.digit(byte) else { return nil }
            value = value * 10 + digit
        }
        position += count
        return value
    }

    /// Reads the digits after a decimal mark as a fraction (`5` → 0.5, `25` → 0.25).
    ///
    /// Each digit adds its value times a scale that shrinks tenfold: the arithmetic the CSV timestamps have always
    /// used, so their instants stay the same to the last bit.
    ///
    /// - Returns: The fraction, or nil when no digit comes next.
    mutating func fraction() -> Double? {
        var value = 0.0
        var scale = 0.1
        let start = position
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            value += Double(digit) * scale
            scale /= 10
            position += 1
        }
        return position > start ? value : nil
    }

    /// Reads a non-negative decimal number: `12`, `1.5` or `1,5`.
    ///
    /// - Returns: The number, or nil when no digit comes next or the decimal mark has no digit after it.
    mutating func decimal() -> Double? {
        var whole = 0.0
        let start = position
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            whole = whole * 10 + Double(digit)
            position += 1
        }
        guard position > start else { return nil }
        if take(".") || take(",") {
            guard let fraction = fraction() else { return nil }
            return whole + fraction
        }
        return whole
    }

    /// The value of an ASCII digit, nil for any other byte.
    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte &- 0x30) : nil
    }
}
