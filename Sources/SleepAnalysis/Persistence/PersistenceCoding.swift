import Foundation

/// How the journal and the session store turn values into stored bytes and back: JSON, exact dates,
/// and non-finite numbers (a feature vector may hold NaN) written as strings instead of failing.
enum PersistenceCoding {
    /// Encodes `value` as JSON.
    ///
    /// - Parameters:
    ///   - value: What to store.
    ///   - what: What it is, for the error message.
    /// - Returns: The JSON bytes.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the value cannot be encoded.
    static func encode<Value: Encodable>(_ value: Value, what: @autoclosure () -> String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try encoder.encode(value)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot encode \(what()): \(error)")
        }
    }

    /// Decodes a value from JSON written by `encode`.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON bytes.
    ///   - what: What it is, for the error message.
    /// - Returns: The value.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the bytes do not decode as `type`.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, what: @autoclosure () -> String
    ) throws -> Value {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot decode \(what()): \(error)")
        }
    }
}
