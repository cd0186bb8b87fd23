/// A `records/modify` request: `operations` (each `operationType` and `record`), `atomic`
/// (default true), `desiredKeys`, `numbersAsStrings` and `zoneID`. Parsing checks the shape of every operation
/// before anything is written; field values are typed later, against the schema.
struct CloudKitModifyRequest: Sendable {
    /// CloudKit's seven operation types.
    enum OperationType: String, Sendable, CaseIterable {
        case create, update, forceUpdate, replace, forceReplace, delete, forceDelete

        /// Whether the operation checks the record's `recordChangeTag`.
        var checksChangeTag: Bool { self == .update || self == .replace || self == .delete }
        var isDeletion: Bool { self == .delete || self == .forceDelete }
    }

    /// One operation as sent: its record's name, type, change tag and raw field dictionaries.
    struct Operation: Sendable {
        var type: OperationType
        var recordName: String?
        var recordType: String?
        var changeTag: String?
        var fields: [String: JSONValue]
        /// `operations[i]`, for reasons.
        var path: String
    }

    /// CloudKit's most operations in one request.
    static let maximumOperations = 200

    var operations: [Operation]
    var atomic: Bool
    var form: CloudKitRecordForm

    init(_ body: JSONValue) throws(CloudKitError) {
        guard case .object = body else {
            throw CloudKitError(.badRequest, "the request body must be a JSON object with operations")
        }
        let zoneName = try CloudKitZone.name(body["zoneID"])
        guard case .array(let operations)? = body["operations"] else {
            throw CloudKitError(.badRequest, "records/modify needs an operations array such as [{\"operationType\": \"create\", \"record\": {…}}]")
        }
        guard operations.count <= Self.maximumOperations else {
            throw CloudKitError(.badRequest, "a request holds at most \(Self.maximumOperations) operations; this one has \(operations.count) — split it")
        }
        atomic = try JSONValue.flag(body["atomic"], key: "atomic") ?? true
        form = try CloudKitRecordForm(body)
        var parsed: [Operation] = []
        var names = Set<String>()
        for (index, operation) in operations.enumerated() {
            let next = try Self.operation(operation, path: "operations[\(index)]", zone: zoneName)
            if let name = next.recordName, !names.insert(name).inserted {
                throw CloudKitError(
                    .badRequest, "\(next.path): record \(name.debugDescription) has another operation in this request; send one operation per record",
                    recordName: name)
            }
            parsed.append(next)
        }
        self.operations = parsed
    }

    /// The records whose type the request leaves to the stored record (updates and replaces
    /// without a `recordType`).
    var untypedRecordNames: [String] {
        operations.filter { !$0.type.isDeletion && $0.recordType == nil }.compactMap(\.recordName)
    }

    private static func operation(_ json: JSONValue, path: String, zone: String) throws(CloudKitError) -> Operation {
        guard case .string(let typeName)? = json["operationType"] else {
            throw CloudKitError(.badRequest, "\(path) needs an operationType")
        }
        guard let type = OperationType(rawValue: typeName) else {
            let known = OperationType.allCases.map(\.rawValue).joined(separator: ", ")
            throw CloudKitError(.badRequest, "\(path): \(typeName.debugDescription) is not an operation type; use one of \(known)")
        }
        guard let record = json["record"], case .object = record else {
            throw CloudKitError(.badRequest, "\(path) needs a record dictionary")
        }
        let recordName = try string(record["recordName"], "\(path).record.recordName")
        let recordType = try string(record["recordType"], "\(path).record.recordType")
        let changeTag = try string(record["recordChangeTag"], "\(path).record.recordChangeTag")
        if record["zoneID"] != nil, try CloudKitZone.name(record["zoneID"]) != zone {
            throw CloudKitError(
                .badRequest, "\(path).record.zoneID names another zone than the request's zoneID (\(zone)); send one request per zone", recordName: recordName)
        }
        var fields: [String: JSONValue] = [:]
        switch record["fields"] {
        case nil: break
        case .object(let members)?: fields = members
        case let other?: throw CloudKitError(.badRequest, "\(path).record.fields must be a dictionary, not \(other.kindName)")
        }
        if recordName == nil && type != .create {
            throw CloudKitError(.badRequest, "\(path): \(type.rawValue) needs the record's recordName")
        }
        if recordType == nil && (type == .create || type == .forceUpdate || type == .forceReplace) {
            throw CloudKitError(.badRequest, "\(path): \(type.rawValue) needs the record's recordType", recordName: recordName)
        }
        if changeTag == nil && (type == .update || type == .replace) {
            throw CloudKitError(
                .badRequest,
                "\(path): \(type.rawValue) needs the recordChangeTag the change is based on; use force\(type == .update ? "Update" : "Replace") to change the record regardless",
                recordName: recordName, recordType: recordType)
        }
        return Operation(type: type, recordName: recordName, recordType: recordType, changeTag: changeTag, fields: fields, path: path)
    }

    private static func string(_ json: JSONValue?, _ path: String) throws(CloudKitError) -> String? {
        switch json {
        case nil: return nil
        case .string(let text)?: return text
        case let other?: throw CloudKitError(.badRequest, "\(path) must be a string, not \(other.kindName)")
        }
    }
}
