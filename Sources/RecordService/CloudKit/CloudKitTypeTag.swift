import RecordKit

/// CloudKit's `type` tag of a field value (`{"value": …, "type": "INT64"}`): what a response
/// carries for every value, and what a request may carry instead of leaving the type to the
/// schema.
///
/// Responses use CloudKit's names: `ASSETID` for assets, `NUMBER_INT64`/`NUMBER_DOUBLE` for
/// NUMBER fields, `<ELEMENT>_LIST` for lists. Requests may use those or the schema's own
/// names (`ASSET`, `LIST`).
enum CloudKitTypeTag {
    /// The tag a response gives `value` of a field of `type`.
    static func tag(for type: FieldType, value: Value) -> String {
        switch type {
        case .list(let element):
            let first = if case .list(let values) = value { values.first } else { Value?.none }
            return scalarTag(element, value: first) + "_LIST"
        default:
            return scalarTag(type, value: value)
        }
    }

    private static func scalarTag(_ type: FieldType, value: Value?) -> String {
        switch type {
        case .asset: "ASSETID"
        case .number:
            if case .double = value { "NUMBER_DOUBLE" } else { "NUMBER_INT64" }
        default: type.description
        }
    }

    /// The field type `tag` names, for a field that is not in the schema yet (development's
    /// just-in-time schema), or `nil` when it names none.
    static func fieldType(named tag: String) -> FieldType? {
        if tag.hasSuffix("_LIST") {
            return fieldType(named: String(tag.dropLast(5))).flatMap { element in
                if case .list = element { return nil }
                return .list(element)
            }
        }
        switch tag {
        case "ASSETID": return .asset
        case "NUMBER_INT64": return .number(preferred: .int64)
        case "NUMBER_DOUBLE": return .number(preferred: .double)
        case "LIST": return nil
        default: return FieldType(parsing: tag)
        }
    }

    /// Whether a value tagged `tag` may be stored in a field of `type`. `LIST` fits every list,
    /// numeric tags fit every numeric field (CloudKit tags integers INT64 whatever the field).
    static func tag(_ tag: String, fits type: FieldType) -> Bool {
        if tag == "LIST" { return type.elementType != nil }
        guard let tagged = fieldType(named: tag) else { return false }
        switch (tagged, type) {
        case (.list(let taggedElement), .list(let element)):
            return isNumeric(taggedElement) ? isNumeric(element) : taggedElement == element
        case (.list, _), (_, .list):
            return false
        default:
            return isNumeric(tagged) ? isNumeric(type) : tagged == type
        }
    }

    private static func isNumeric(_ type: FieldType) -> Bool {
        switch type {
        case .int64, .double, .number: true
        default: false
        }
    }
}
