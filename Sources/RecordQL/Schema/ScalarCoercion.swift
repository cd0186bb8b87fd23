import Foundation
import GraphQL
import RecordKit

/// How the custom scalars read their values, shared by the scalar types (``CustomScalars``) and
/// the translators of coerced inputs, so that both accept exactly the same values.
enum ScalarCoercion {
    /// The range `Int64` accepts, for messages.
    static let int64Range = "\(Int64.min)…\(Int64.max)"

    /// The integer `number` holds exactly, or `nil` when it is fractional or out of Int64 range.
    static func int64(_ number: Number) -> Int64? {
        if let exact = Int64(number.stringValue) { return exact }
        return int64(exactly: number.doubleValue)
    }

    /// `value` when it is a whole number within Int64 range.
    static func int64(exactly value: Double) -> Int64? {
        // 2^63 is the first double past Int64.max; every double below it converts exactly.
        guard value.isFinite, value.rounded(.towardZero) == value, value >= -0x1p63, value < 0x1p63 else { return nil }
        return Int64(value)
    }

    /// The integer an `Int64` literal or variable gives, or why it is refused.
    static func int64(from map: Map) -> Result<Int64, CoercionFailure> {
        guard case .number(let number) = map else {
            return .failure(CoercionFailure("Int64 cannot represent non-integer value: \(map)"))
        }
        guard let value = int64(number) else {
            return .failure(CoercionFailure("Int64 cannot represent \(number): it is not a whole number within \(int64Range)"))
        }
        return .success(value)
    }

    /// The integer of an Int literal or an integral Float literal (`12`, `1e3`).
    static func int64(literal: any GraphQL.Value) -> Result<Int64, CoercionFailure> {
        if let int = literal as? IntValue {
            guard let value = Int64(int.value) else {
                return .failure(CoercionFailure("Int64 cannot represent \(int.value): it is outside \(int64Range)"))
            }
            return .success(value)
        }
        if let float = literal as? FloatValue, let double = Double(float.value) {
            guard let value = int64(exactly: double) else {
                return .failure(CoercionFailure("Int64 cannot represent \(float.value): it is not a whole number within \(int64Range)"))
            }
            return .success(value)
        }
        return .failure(CoercionFailure("Int64 cannot represent non-integer value: \(print(ast: literal))"))
    }

    /// The date of ISO-8601 text (RecordKit's ``Timestamp/parse(_:)``), or why it is refused.
    static func timestamp(_ text: String) -> Result<Date, CoercionFailure> {
        guard let date = Timestamp.parse(text) else {
            return .failure(CoercionFailure("Timestamp cannot represent '\(text)': write ISO-8601 such as 2026-11-21T09:30:00Z or 2026-11-21"))
        }
        return .success(date)
    }

    /// The bytes of base64 text, or why it is refused.
    static func bytes(_ text: String) -> Result<Data, CoercionFailure> {
        guard let data = Data(base64Encoded: text) else {
            return .failure(CoercionFailure("Bytes cannot represent '\(text.prefix(40))': it is not base64"))
        }
        return .success(data)
    }

    /// Why an input value does not fit a scalar.
    struct CoercionFailure: Error, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
