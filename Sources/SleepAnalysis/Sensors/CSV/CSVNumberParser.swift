import Foundation

/// Parses a decimal number from ASCII bytes, fast for the plain forms sensor files hold (`-0.0123`, `9.81`,
/// `1706742000.25`, `1.5e-3`) and exactly as `Double(String)` for everything else (long mantissas, large
/// exponents, `nan`, `inf`, hexadecimal), so the result never depends on which path ran.
///
/// The fast path is Clinger's: a mantissa of at most 2^53 scaled by an exact power of ten up to 10^22 is one
/// correctly rounded multiplication or division.
enum CSVNumberParser {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The number the bytes spell, or nil when they are not a number.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = fastParse(bytes) { return value }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    private static func fastParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        while index < count, let digit = digitValue(bytes[index]) {
            guard mantissa < 100_000_000_000_000_000 else { return nil }
            mantissa = mantissa * 10 + digit
            digits += 1
            index += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, let digit = digitValue(bytes[index]) {
                guard mantissa < 100_000_000_000_000_000 else { return nil }
                mantissa = mantissa * 10 + digit
                digits += 1
                scale -= 1
                index += 1
            }
        }
        guard digits > 0 else { return nil }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            var exponentDigits = 0
            while index < count, let digit = digitValue(bytes[index]) {
                guard exponent < 1_000 else { return nil }
                exponent = exponent * 10 + Int(digit)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        guard index == count, mantissa <= 1 << 53, abs(scale) <= 22 else { return nil }
        let magnitude = Double(mantissa)
        let value = scale >= 0 ? magnitude * powersOfTen[scale] : magnitude / powersOfTen[-scale]
        return negative ? -value : value
    }

    private static func digitValue(_ byte: UInt8) -> UInt64? {
        byte >= 0x30 && byte <= 0x39 ? UInt64(byte - 0x30) : nil
    }
}
