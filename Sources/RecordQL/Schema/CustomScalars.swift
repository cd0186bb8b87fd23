import Foundation
import GraphQL
import RecordKit

/// The custom scalars of the generated schema (the README's query language section). Each is made per generated
/// schema (GraphQLSwift compares types by identity).
///
/// - `Int64`: INT64 values, serialized as JSON numbers. Accepts Int literals, integral Float
///   literals and integral JSON numbers within Int64 range; anything else fails with a message
///   naming the range.
/// - `Timestamp`: ISO-8601 text with milliseconds in UTC (`2026-11-21T09:25:00.000Z`); input
///   may omit fractional seconds or be a bare date. Coerced inputs are the normalized text.
/// - `Bytes`: base64 text. Coerced inputs are the normalized base64.
enum CustomScalars {
    static func int64() throws -> GraphQLScalarType {
        try GraphQLScalarType(
            name: GraphQLNames.int64Scalar,
            description: "A 64-bit signed integer (CloudKit INT64), serialized as a JSON number.",
            serialize: { value in
                guard let number = int64(output: value) else {
                    throw GraphQLError(message: "Int64 cannot represent \(value): it is not a whole number within \(ScalarCoercion.int64Range)")
                }
                return .number(Number(number))
            },
            parseValue: { map in .number(Number(try ScalarCoercion.int64(from: map).graphQL())) },
            parseLiteral: { literal in
                .number(Number(try ScalarCoercion.int64(literal: literal).graphQL(nodes: [literal])))
            }
        )
    }

    static func timestamp() throws -> GraphQLScalarType {
        try GraphQLScalarType(
            name: GraphQLNames.timestampScalar,
            description: "A point in time (CloudKit TIMESTAMP, millisecond precision) as ISO-8601 text, e.g. 2026-11-21T09:25:00.000Z.",
            serialize: { value in
                if let date = value as? Date { return .string(Timestamp.format(date)) }
                guard let text = text(output: value) else { throw GraphQLError(message: "Timestamp cannot represent \(value)") }
                return .string(Timestamp.format(try ScalarCoercion.timestamp(text).graphQL()))
            },
            parseValue: { map in
                guard case .string(let text) = map else { throw GraphQLError(message: "Timestamp cannot represent non-string value: \(map)") }
                return .string(Timestamp.format(try ScalarCoercion.timestamp(text).graphQL()))
            },
            parseLiteral: { literal in
                guard let string = literal as? StringValue else {
                    throw GraphQLError(message: "Timestamp cannot represent non-string value: \(print(ast: literal))", nodes: [literal])
                }
                return .string(Timestamp.format(try ScalarCoercion.timestamp(string.value).graphQL(nodes: [literal])))
            }
        )
    }

    static func bytes() throws -> GraphQLScalarType {
        try GraphQLScalarType(
            name: GraphQLNames.bytesScalar,
            description: "Binary data (CloudKit BYTES, or the content of an ASSET) as base64 text.",
            serialize: { value in
                if let data = value as? Data { return .string(data.base64EncodedString()) }
                guard let text = text(output: value) else { throw GraphQLError(message: "Bytes cannot represent \(value)") }
                return .string(try ScalarCoercion.bytes(text).graphQL().base64EncodedString())
            },
            parseValue: { map in
                guard case .string(let text) = map else { throw GraphQLError(message: "Bytes cannot represent non-string value: \(map)") }
                return .string(try ScalarCoercion.bytes(text).graphQL().base64EncodedString())
            },
            parseLiteral: { literal in
                guard let string = literal as? StringValue else {
                    throw GraphQLError(message: "Bytes cannot represent non-string value: \(print(ast: literal))", nodes: [literal])
                }
                return .string(try ScalarCoercion.bytes(string.value).graphQL(nodes: [literal]).base64EncodedString())
            }
        )
    }

    /// The integer of a resolved value: Swift integers, integral doubles, JSON numbers.
    private static func int64(output value: Any) -> Int64? {
        switch value {
        case let number as Int64: number
        case let number as Int: Int64(number)
        case let number as Int32: Int64(number)
        case let number as Double: ScalarCoercion.int64(exactly: number)
        case let map as Map: if case .number(let number) = map { ScalarCoercion.int64(number) } else { nil }
        default: nil
        }
    }

    /// The text of a resolved string value.
    private static func text(output value: Any) -> String? {
        switch value {
        case let text as String: text
        case let map as Map: map.string
        default: nil
        }
    }
}

extension Result where Failure == ScalarCoercion.CoercionFailure {
    /// The value, or the failure as a GraphQL error pointing at `nodes`.
    func graphQL(nodes: [any Node] = []) throws(GraphQLError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let failure): throw GraphQLError(message: failure.message, nodes: nodes)
        }
    }
}
