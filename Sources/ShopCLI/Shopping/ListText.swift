import RecordKit
import RecordQL

/// The elements of a value typed at the prompt for a LIST<T> field, each still text for
/// ``ValueParser`` (or, for LIST<REFERENCE>, the name lookup of `item add` / `item set`) to type
/// exactly as a single value of type T is typed.
///
/// | form | example |
/// |---|---|
/// | elements separated by commas, spaces around them dropped | `tags=red,green`, `counts=1,2`, `also=Groceries,Hardware` |
/// | a JSON array, when the text starts with `[` | `tags='["a,b","c"]'`, `spots='[[48.85,2.35],[40.71,-74.01]]'`, `tags='[]'` |
///
/// In a JSON array a string element is read as it would be typed for one value (`"48.85,2.35"`
/// is a location, `"Groceries"` a list by name), a number as its digits, and a LOCATION may
/// also be a `[latitude, longitude]` pair. It is the way to give elements holding a comma (every
/// LOCATION does) and the empty list.
enum ListText {
    /// The element texts of `text` for LIST field `field` of `recordType`.
    ///
    /// - Throws: `schemaViolation` for text starting with `[` that is not a JSON array of such
    ///   elements, naming what is wrong and showing the form for this field.
    static func elements(_ text: String, for field: FieldDefinition, in recordType: String) throws(RecordError) -> [String] {
        guard text.hasPrefix("[") else {
            return text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
        }
        let parsed = Result { () throws(JSONSyntaxError) in try JSONValue.parse(text) }
        // Text that starts with `[` and is JSON is an array; anything else fails to parse.
        guard case .success(.array(let array)) = parsed else {
            let why = if case .failure(let error) = parsed { " (\(error))" } else { "" }
            throw RecordError(
                .schemaViolation,
                "\(recordType).\(field.name) is \(field.type), and '\(text)' is not a JSON array\(why); write it as \(example(for: field))",
                recordType: recordType, field: field.name
            )
        }
        var elements: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = elementText(element, isLocation: field.type == .list(.location)) else {
                throw RecordError(
                    .schemaViolation,
                    "\(recordType).\(field.name) is \(field.type), and element \(index) of the JSON array is not a string or a number\(field.type == .list(.location) ? " or a [latitude, longitude] pair" : ""); write it as \(example(for: field))",
                    recordType: recordType, field: field.name
                )
            }
            elements.append(text)
        }
        return elements
    }

    /// The text of one JSON array element: a string as it is, a number as its digits, and for a
    /// LOCATION a `[latitude, longitude]` pair as `latitude,longitude`; `nil` for anything else.
    private static func elementText(_ element: JSONValue, isLocation: Bool) -> String? {
        switch element {
        case .string(let text), .number(let text): text
        case .array(let pair) where isLocation && pair.count == 2:
            if case .number(let latitude) = pair[0], case .number(let longitude) = pair[1] { "\(latitude),\(longitude)" } else { nil }
        default: nil
        }
    }

    /// An assignment to LIST field `field` in the JSON form that works, e.g. `spots='[[48.85,2.35]]'`.
    static func example(for field: FieldDefinition) -> String {
        let array =
            switch field.type {
            case .list(.int64), .list(.number): "[1,2]"
            case .list(.double): "[1.5,2]"
            case .list(.timestamp): #"["2026-11-21","2026-11-21T09:30:00Z"]"#
            case .list(.bytes): #"["AAH/","aGk="]"#
            case .list(.location): "[[48.85,2.35],[40.71,-74.01]]"
            case .list(.reference): #"["Groceries","Hardware"]"#
            case .list(.asset): #"["photo.jpg"]"#
            default: #"["a,b","c"]"#
            }
        return "\(field.name)='\(array)'"
    }
}
