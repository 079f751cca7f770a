import Foundation

/// How the journal and the session store turn values into stored bytes and back: JSON, exact dates,
/// and non-finite numbers (a feature vector may hold NaN) written as strings instead of failing.
package enum PersistenceCoding {
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
    package static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, what: @autoclosure () -> String
    ) throws -> Value {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot decode \(what()): \(reason(error))")
        }
    }

    /// Why bytes did not decode, in a few words (where in the value, and what was wrong) instead of the
    /// `DecodingError` dump.
    ///
    /// - Parameter error: The decoder's error.
    /// - Returns: A short reason, e.g. "'statistics.totalSleepDuration' is not a number".
    static func reason(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "the bytes are not valid JSON" : "'\(path(context))' is corrupt: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "'\(path(context, key))' is missing"
        case .typeMismatch(let type, let context):
            return "'\(path(context))' is not a \(type)"
        case .valueNotFound(let type, let context):
            return "'\(path(context))' is null where a \(type) was expected"
        @unknown default:
            return "\(error)"
        }
    }
}
