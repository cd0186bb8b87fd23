import Foundation
import RecordKit
import RecordQL

/// Records in CloudKit's JSON, as the server's `records/lookup` answers, read back into
/// RecordKit's records with their values exactly as stored: a reference keeps its action and
/// its recordName even when the record it names is gone, an asset its SHA-256
/// (`fileChecksum`) and size, a timestamp its milliseconds.
enum CloudKitRecords {
    /// One record of an answer, its values typed by `type`.
    static func record(_ json: JSONValue, of type: RecordType) throws(RecordError) -> Record {
        guard case .string(let recordName)? = json["recordName"] else {
            throw RecordError(.internalError, "a \(type.name) record in the server's answer has no recordName")
        }
        var record = Record(type.name, recordName: recordName)
        if case .string(let tag)? = json["recordChangeTag"] { record.changeTag = tag }
        record.createdAt = ServerValueForm.date(json["created"]?["timestamp"])
        record.modifiedAt = ServerValueForm.date(json["modified"]?["timestamp"])
        for field in type.userFields {
            guard let stored = json["fields"]?[field.name]?["value"] else { continue }
            guard let value = ServerValueForm.cloudKit.value(stored, type: field.type) else {
                throw RecordError(
                    .internalError, "the server sent \(type.name).\(field.name) of \(recordName) as \(stored.text), which is not a \(field.type) value")
            }
            record.fields[field.name] = value
        }
        return record
    }
}
