/// Validation of record type and field names (CloudKit's data model, as the README describes it).
///
/// Names are `[A-Za-z][A-Za-z0-9_]*`, at most 255 characters; names starting with `_` are
/// reserved. Only names that pass are ever spliced into SQL (always double-quoted), so every
/// identifier that reaches the storage layer goes through here first.
public enum Identifier {
    /// The longest name accepted.
    public static let maximumLength = 255

    /// Whether `name` is a valid user-defined record type or field name.
    public static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, utf8.count <= maximumLength, isLetter(first) else { return false }
        return utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Throws `invalidArguments` naming what is wrong with `name`, used as a `kind` name.
    public static func validate(_ name: String, as kind: Kind) throws(RecordError) {
        if isValid(name) { return }
        let shown = name.count > 60 ? String(name.prefix(60)) + "…" : name
        let reason: String
        if name.isEmpty {
            reason = "it is empty"
        } else if name.utf8.count > maximumLength {
            reason = "it is longer than \(maximumLength) characters"
        } else if name.hasPrefix("_") {
            reason = "names starting with '_' are reserved for system fields"
        } else {
            reason = "names start with a letter and contain only letters, digits and '_'"
        }
        throw RecordError(.invalidArguments, "'\(shown)' is not a valid \(kind.rawValue) name: \(reason)")
    }

    /// The prefix of CloudKit's own record types (`cloudkit.share`) and of their fields
    /// (`cloudkit.title`), which real schema exports contain.
    public static let cloudKitPrefix = "cloudkit."

    /// Whether `name` is a CloudKit system name: `cloudkit.` followed by a valid name.
    public static func isCloudKitSystemName(_ name: String) -> Bool {
        name.hasPrefix(cloudKitPrefix) && isValid(String(name.dropFirst(cloudKitPrefix.count)))
    }

    /// What a name names, for error messages.
    public enum Kind: String, Sendable {
        case recordType = "record type"
        case field = "field"
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
