import Foundation
public import GraphQL
import OrderedCollections
public import RecordKit

/// Turns a coerced `fields:` value (a `TInput` object) into RecordKit field values, keyed by
/// schema field name, for ``RecordOperation/create(_:)`` and ``RecordOperation/update(recordType:recordName:fields:ifChangeTag:)``.
///
/// STRING → `.string`, INT64 → `.int64`, DOUBLE and NUMBER → `.double` (`.int64` for NUMBER
/// PREFERRED AS INT64), TIMESTAMP (ISO-8601) → `.timestamp`, BYTES (base64) → `.bytes`,
/// REFERENCE `{recordName, action}` → `.reference`, LOCATION `{latitude, longitude, …}` →
/// `.location`, ASSET (base64 content) → `.asset(Asset(content:))`, LIST → `.list`.
/// An explicit `null` maps to `nil`: it removes the value in an update.
public struct FieldInputTranslator: Sendable {
    let recordType: RecordType
    let names: GraphQLNameMap.RecordTypeNames

    init(recordType: RecordType, names: GraphQLNameMap.RecordTypeNames) {
        self.recordType = recordType
        self.names = names
    }

    /// The field values `fields` (a `TInput` value) gives; `nil` values remove a value.
    public func values(from fields: Map) throws(RecordError) -> [String: RecordKit.Value?] {
        let reader = InputReader(recordType: recordType.name, root: names.inputType)
        guard case .dictionary(let members) = fields else {
            throw reader.error("expected an input object, got \(fields.typeDescription) \(fields)")
        }
        var values: [String: RecordKit.Value?] = [:]
        for (key, value) in members where !value.isUndefined {
            guard let fieldName = names.field(named: key), let field = recordType.field(named: fieldName) else {
                throw reader.appending(key).error("\(names.inputType) has no field '\(key)'")
            }
            let member = reader.appending(key, field: field.name)
            values.updateValue(value.isNull ? nil : try self.value(value, type: field.type, member), forKey: field.name)
        }
        return values
    }

    private func value(_ map: Map, type: FieldType, _ reader: InputReader) throws(RecordError) -> RecordKit.Value {
        switch type {
        case .string: return .string(try reader.string(map))
        case .int64, .number(preferred: .int64): return .int64(try reader.int64(map))
        case .double, .number: return .double(try reader.double(map))
        case .timestamp: return .timestamp(try reader.timestamp(map))
        case .bytes: return .bytes(try reader.bytes(map))
        case .asset: return .asset(Asset(content: try reader.bytes(map)))
        case .location: return .location(try reader.location(map))
        case .reference: return .reference(try reference(map, reader))
        case .list(let element):
            var elements: [RecordKit.Value] = []
            for (index, item) in reader.list(map).enumerated() {
                let itemReader = reader.element(index)
                guard !item.isNull else { throw itemReader.error("list elements cannot be null") }
                elements.append(try value(item, type: element, itemReader))
            }
            return .list(elements)
        }
    }

    /// A `ReferenceInput`: `{recordName: ID!, action: NONE | DELETE_SELF}`.
    private func reference(_ map: Map, _ reader: InputReader) throws(RecordError) -> Reference {
        let members = try reader.members(map, expected: "a reference {recordName: ID!, action: NONE | DELETE_SELF}")
        guard let name = members.first(where: { $0.key == "recordName" }) else { throw reader.error("a reference needs recordName") }
        var action = Reference.Action.none
        if let given = members.first(where: { $0.key == "action" }) {
            let text = try reader.appending("action").string(given.value)
            guard let parsed = Reference.Action(rawValue: text) else {
                throw reader.appending("action").error("a reference action is NONE or DELETE_SELF, not '\(text)'")
            }
            action = parsed
        }
        return Reference(try reader.appending("recordName").id(name.value), action: action)
    }
}
