/// How a request asks for the records of its response: `desiredKeys` (only those fields) and
/// `numbersAsStrings` (INT64, DOUBLE and NUMBER values as JSON strings, exact in any client —
/// a JavaScript number holds 53 bits — as MistKit asks for them). `records/query`,
/// `records/lookup`, `records/modify` and `records/changes` take both.
struct CloudKitRecordForm: Sendable {
    /// The fields to return, or `nil` for all of them.
    var desiredKeys: Set<String>?
    /// Whether number values are written as strings (`{"type": "INT64", "value": "42"}`).
    var numbersAsStrings = false

    /// Every field, numbers as numbers.
    static let full = CloudKitRecordForm()

    init(desiredKeys: Set<String>? = nil, numbersAsStrings: Bool = false) {
        self.desiredKeys = desiredKeys
        self.numbersAsStrings = numbersAsStrings
    }

    /// The form the request `body` asks for.
    init(_ body: JSONValue) throws(CloudKitError) {
        desiredKeys = try JSONValue.names(body["desiredKeys"], key: "desiredKeys", naming: "field names")
        numbersAsStrings = try JSONValue.flag(body["numbersAsStrings"], key: "numbersAsStrings") ?? false
    }

    /// The form for one entry of a request, `entry` a dictionary at `path` that may hold
    /// `desiredKeys` of its own (records/lookup's lookup record dictionary): those fields in
    /// place of the request's.
    func narrowed(by entry: JSONValue, at path: String) throws(CloudKitError) -> CloudKitRecordForm {
        guard let own = try JSONValue.names(entry["desiredKeys"], key: "\(path).desiredKeys", naming: "field names") else { return self }
        return CloudKitRecordForm(desiredKeys: own, numbersAsStrings: numbersAsStrings)
    }

    /// Whether the field `name` is returned.
    func includes(_ name: String) -> Bool {
        desiredKeys?.contains(name) ?? true
    }
}
