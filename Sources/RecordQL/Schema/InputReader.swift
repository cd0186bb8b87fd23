import Foundation
import GraphQL
import OrderedCollections
import RecordKit

/// Reads coerced GraphQL input values (``Map``) at a path such as `ItemsFilter.name.in`, failing
/// with `invalidArguments` that names the path, what was expected and what was given.
///
/// The translators use it so that they accept both inputs coerced by GraphQLSwift (scalars
/// already normalized) and inputs the execution layer coerced itself: every scalar is checked
/// again with the same rules as the custom scalars (``ScalarCoercion``).
struct InputReader: Sendable {
    let recordType: String
    let path: [String]
    /// The user field the path is under, for the error's context.
    var field: String?

    init(recordType: String, root: String) {
        self.recordType = recordType
        self.path = [root]
    }

    private init(recordType: String, path: [String], field: String?) {
        self.recordType = recordType
        self.path = path
        self.field = field
    }

    /// The reader of member `key`.
    func appending(_ key: String, field: String? = nil) -> InputReader {
        InputReader(recordType: recordType, path: path + [key], field: field ?? self.field)
    }

    /// The reader of element `index` of a list.
    func element(_ index: Int) -> InputReader {
        var path = path
        path[path.count - 1] += "[\(index)]"
        return InputReader(recordType: recordType, path: path, field: field)
    }

    var description: String { path.joined(separator: ".") }

    func error(_ problem: String) -> RecordError {
        RecordError(.invalidArguments, "\(description): \(problem)", recordType: recordType, field: field)
    }

    /// The members of an input object (`expected` says which, when it is not one), in input
    /// order, leaving out undefined ones and refusing explicit nulls (leave the key out instead).
    func members(_ map: Map, expected: String = "an input object") throws(RecordError) -> [(key: String, value: Map)] {
        guard case .dictionary(let dictionary) = map else { throw mismatch(expected, map) }
        var members: [(key: String, value: Map)] = []
        for (key, value) in dictionary where !value.isUndefined {
            if value.isNull {
                throw appending(key).error("null is not a value here; leave the key out (or use isNull to test for an absent field)")
            }
            members.append((key, value))
        }
        return members
    }

    /// The elements of a list; a single value counts as a list of one, as GraphQL coerces it.
    func list(_ map: Map) -> [Map] {
        if case .array(let elements) = map { return elements }
        return [map]
    }

    func string(_ map: Map) throws(RecordError) -> String {
        guard case .string(let text) = map else { throw mismatch("a String", map) }
        return text
    }

    /// An `ID`: a string, or an integer as GraphQL's ID accepts.
    func id(_ map: Map) throws(RecordError) -> String {
        if case .number(let number) = map, let integer = ScalarCoercion.int64(number) { return String(integer) }
        guard case .string(let text) = map else { throw mismatch("an ID", map) }
        return text
    }

    func bool(_ map: Map) throws(RecordError) -> Bool {
        guard case .bool(let flag) = map else { throw mismatch("a Boolean", map) }
        return flag
    }

    func int(_ map: Map) throws(RecordError) -> Int {
        guard case .number(let number) = map, let value = ScalarCoercion.int64(number), let int = Int(exactly: value) else {
            throw mismatch("an Int", map)
        }
        return int
    }

    func int64(_ map: Map) throws(RecordError) -> Int64 {
        try check(ScalarCoercion.int64(from: map))
    }

    func double(_ map: Map) throws(RecordError) -> Double {
        guard case .number(let number) = map, number.doubleValue.isFinite else { throw mismatch("a Float", map) }
        return number.doubleValue
    }

    func timestamp(_ map: Map) throws(RecordError) -> Date {
        try check(ScalarCoercion.timestamp(try string(map)))
    }

    func bytes(_ map: Map) throws(RecordError) -> Data {
        try check(ScalarCoercion.bytes(try string(map)))
    }

    /// A `LocationInput`: `{latitude, longitude}`, and the members beside them that are given
    /// (``RecordKit/Location/Detail``; a time as a timestamp).
    func location(_ map: Map) throws(RecordError) -> RecordKit.Location {
        let members = try self.members(map, expected: "a location {latitude: Float!, longitude: Float!, …}")
        func member(_ name: String) -> Map? {
            guard let value = members.first(where: { $0.key == name })?.value, value != .null, value != .undefined else { return nil }
            return value
        }
        func coordinate(_ name: String) throws(RecordError) -> Double {
            guard let value = member(name) else { throw error("a location needs \(name)") }
            return try appending(name).double(value)
        }
        var location = RecordKit.Location(latitude: try coordinate("latitude"), longitude: try coordinate("longitude"))
        for detail in RecordKit.Location.Detail.allCases {
            guard let value = member(detail.rawValue) else { continue }
            let reader = appending(detail.rawValue)
            let number = detail.isTime ? Double(RecordKit.Timestamp.milliseconds(try reader.timestamp(value))) : try reader.double(value)
            guard location.setDetail(detail, to: number) else { throw reader.error("a location's \(detail.rawValue) must be a finite number") }
        }
        return location
    }

    private func check<T>(_ result: Result<T, ScalarCoercion.CoercionFailure>) throws(RecordError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let failure): throw error(failure.message)
        }
    }

    private func mismatch(_ expected: String, _ map: Map) -> RecordError {
        error("expected \(expected), got \(map.typeDescription) \(map)")
    }
}
