import Foundation
import RecordKit
import Testing

@testable import RecordService

/// Field values as CloudKit clients send them (untagged, typed by the schema) and as responses
/// carry them (tagged).
@Suite struct CloudKitFieldValueTests {
    static func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    static func decode(_ text: String, as type: FieldType) throws -> Value {
        try CloudKitFieldValue.decode(try json(text), as: type, where: "T.f")
    }

    @Test func untaggedValuesAreTypedByTheField() throws {
        #expect(try Self.decode(#"{"value": "Milk"}"#, as: .string) == .string("Milk"))
        #expect(try Self.decode(#"{"value": 9007199254740993}"#, as: .int64) == .int64(9_007_199_254_740_993))
        #expect(try Self.decode(#"{"value": true}"#, as: .int64) == .int64(1))
        #expect(try Self.decode(#"{"value": 2}"#, as: .double) == .double(2))
        #expect(try Self.decode(#"{"value": 1.5}"#, as: .number(preferred: nil)) == .double(1.5))
        #expect(try Self.decode(#"{"value": "AAEC"}"#, as: .bytes) == .bytes(Data([0, 1, 2])))
        #expect(try Self.decode(#"{"value": {"recordName": "L1"}}"#, as: .reference) == .reference(Reference("L1")))
        #expect(
            try Self.decode(#"{"value": {"recordName": "L1", "action": "DELETE_SELF", "zoneID": {"zoneName": "_defaultZone"}}}"#, as: .reference)
                == .reference(Reference("L1", action: .deleteSelf))
        )
        #expect(
            try Self.decode(#"{"value": {"latitude": 48.85, "longitude": 2.35, "altitude": 35, "horizontalAccuracy": 5}}"#, as: .location)
                == .location(Location(latitude: 48.85, longitude: 2.35, altitude: 35, horizontalAccuracy: 5))
        )
        #expect(try Self.decode(#"{"value": ["a", "b"]}"#, as: .list(.string)) == .list([.string("a"), .string("b")]))
        #expect(try Self.decode(#"{"value": [{"recordName": "a"}]}"#, as: .list(.reference)) == .list([.reference(Reference("a"))]))
    }

    @Test func timestampsAreMillisecondsWithFractionsAllowed() throws {
        #expect(try Self.decode(#"{"value": 1700000000123}"#, as: .timestamp) == .timestamp(Date(timeIntervalSince1970: 1_700_000_000.123)))
        let fractional = try Self.decode(#"{"value": 1700000000123.4}"#, as: .timestamp)
        guard case .timestamp(let date) = fractional else { Issue.record("not a timestamp"); return }
        #expect(Timestamp.milliseconds(date) == 1_700_000_000_123)
        #expect(Self.written(fractional, type: .timestamp) == #"{"type":"TIMESTAMP","value":1700000000123}"#)
    }

    @Test func tagsAreAcceptedWhenTheyFitTheField() throws {
        #expect(try Self.decode(#"{"value": 3, "type": "INT64"}"#, as: .int64) == .int64(3))
        #expect(try Self.decode(#"{"value": 3, "type": "INT64"}"#, as: .double) == .double(3))
        #expect(try Self.decode(#"{"value": ["a"], "type": "STRING_LIST"}"#, as: .list(.string)) == .list([.string("a")]))
        #expect(try Self.decode(#"{"value": ["a"], "type": "LIST"}"#, as: .list(.string)) == .list([.string("a")]))
        #expect(try Self.decode(#"{"value": {"recordName": "x"}, "type": "REFERENCE"}"#, as: .reference) == .reference(Reference("x")))
    }

    @Test(arguments: [
        (#"{"value": "3"}"#, FieldType.int64, "is INT64 but its value is a string"),
        (#"{"value": 3, "type": "STRING"}"#, .int64, "tagged \"STRING\""),
        (#"{"value": "not base64!"}"#, .bytes, "base64"),
        (#"{"value": {"action": "NONE"}}"#, .reference, "recordName"),
        (#"{"value": {"recordName": "x", "action": "VALIDATE"}}"#, .reference, "NONE, DELETE_SELF"),
        (#"{"value": {"latitude": 91, "longitude": 0}}"#, .location, "±90"),
        (#"{"value": {"latitude": 1, "longitude": 0, "altitude": "high"}}"#, .location, "altitude must be a finite number, not \"high\""),
        (#"{"value": {"latitude": 1, "longitude": 0, "timestamp": 1.5}}"#, .location, "timestamp must be a finite number of milliseconds"),
        (#"{"value": [1, "two"]}"#, .list(.int64), "T.f[1] is INT64"),
        (#""Milk""#, .string, "field value dictionary"),
        (#"{"type": "STRING"}"#, .string, "field value dictionary"),
    ])
    func wrongValuesAreBadRequestsNamingTheField(text: String, type: FieldType, reason: String) throws {
        #expect {
            try Self.decode(text, as: type)
        } throws: { error in
            guard let error = error as? CloudKitError else { return false }
            return error.code == .badRequest && error.reason.contains(reason) && error.reason.contains("T.f")
        }
    }

    @Test func assetsComeFromAnUploadReceipt() throws {
        let content = Data("hello".utf8)
        let value = try CloudKitFieldValue.decode(
            try Self.json(#"{"value": {"receipt": "r1", "fileChecksum": "x", "size": 5}}"#), as: .asset, where: "T.f",
            uploads: { $0 == "r1" ? content : nil }
        )
        #expect(value == .asset(Asset(content: content)))
        #expect { try Self.decode(#"{"value": {"receipt": "gone"}}"#, as: .asset) } throws: { ($0 as? CloudKitError)?.reason.contains("assets/upload") == true }
    }

    @Test func responsesTagEveryValueWithCloudKitsTypeNames() {
        let url: (Asset) -> String = { "https://h/\($0.sha256)" }
        let cases: [(Value, FieldType, String)] = [
            (.string("a"), .string, #"{"type":"STRING","value":"a"}"#),
            (.int64(2), .int64, #"{"type":"INT64","value":2}"#),
            (.double(2.5), .double, #"{"type":"DOUBLE","value":2.5}"#),
            (.int64(2), .number(preferred: nil), #"{"type":"NUMBER_INT64","value":2}"#),
            (.double(2.5), .number(preferred: nil), #"{"type":"NUMBER_DOUBLE","value":2.5}"#),
            (.bytes(Data([0, 1, 2])), .bytes, #"{"type":"BYTES","value":"AAEC"}"#),
            (.reference(Reference("L1", action: .deleteSelf)), .reference, #"{"type":"REFERENCE","value":{"action":"DELETE_SELF","recordName":"L1"}}"#),
            (.location(Location(latitude: 1.5, longitude: -2.5)), .location, #"{"type":"LOCATION","value":{"latitude":1.5,"longitude":-2.5}}"#),
            (
                .location(Location(latitude: 1.5, longitude: -2.5, altitude: 12, verticalAccuracy: 0.5, course: 90, timestamp: 1_700_000_000_123)),
                .location,
                #"{"type":"LOCATION","value":{"latitude":1.5,"longitude":-2.5,"altitude":12.0,"verticalAccuracy":0.5,"course":90.0,"timestamp":1700000000123}}"#
            ),
            (.asset(Asset(size: 3, sha256: "ab")), .asset, #"{"type":"ASSETID","value":{"downloadURL":"https://h/ab","fileChecksum":"ab","size":3}}"#),
            (.list([.string("a")]), .list(.string), #"{"type":"STRING_LIST","value":["a"]}"#),
            (.list([.reference(Reference("x"))]), .list(.reference), #"{"type":"REFERENCE_LIST","value":[{"action":"NONE","recordName":"x"}]}"#),
        ]
        for (value, type, expected) in cases {
            #expect(Self.written(value, type: type, assetURL: url) == expected)
        }
    }

    /// `numbersAsStrings`, as MistKit sends it: numbers come and go as strings of their digits,
    /// exact past a JavaScript number's 53 bits; other strings are still refused.
    @Test func numbersAsStringsReadsAndWritesNumbersAsStrings() throws {
        func decode(_ text: String, as type: FieldType) throws -> Value {
            try CloudKitFieldValue.decode(try Self.json(text), as: type, where: "T.f", numbersAsStrings: true)
        }
        #expect(try decode(#"{"value": "9007199254740993", "type": "INT64"}"#, as: .int64) == .int64(9_007_199_254_740_993))
        #expect(try decode(#"{"value": "-2.5"}"#, as: .double) == .double(-2.5))
        #expect(try decode(#"{"value": "7"}"#, as: .number(preferred: nil)) == .int64(7))
        #expect(try decode(#"{"value": "1700000000123"}"#, as: .timestamp) == .timestamp(Date(timeIntervalSince1970: 1_700_000_000.123)))
        #expect(try decode(#"{"value": ["1", 2]}"#, as: .list(.int64)) == .list([.int64(1), .int64(2)]))
        #expect(try decode(#"{"value": "42"}"#, as: .string) == .string("42"))
        for refused in [#"{"value": "12 apples"}"#, #"{"value": "nan"}"#, #"{"value": " 1"}"#, #"{"value": "0x10"}"#] {
            #expect(throws: CloudKitError.self, "\(refused)") { try decode(refused, as: .int64) }
        }
        func written(_ value: Value, _ type: FieldType) -> String {
            var json = JSONBuffer()
            CloudKitFieldValue.write(value, type: type, numbersAsStrings: true, assetURL: { _ in "" }, to: &json)
            return json.text
        }
        #expect(written(.int64(9_007_199_254_740_993), .int64) == #"{"type":"INT64","value":"9007199254740993"}"#)
        #expect(written(.double(2.5), .double) == #"{"type":"DOUBLE","value":"2.5"}"#)
        #expect(written(.double(2.5), .number(preferred: nil)) == #"{"type":"NUMBER_DOUBLE","value":"2.5"}"#)
        #expect(written(.list([.int64(1), .int64(2)]), .list(.int64)) == #"{"type":"INT64_LIST","value":["1","2"]}"#)
        #expect(written(.timestamp(Date(timeIntervalSince1970: 1)), .timestamp) == #"{"type":"TIMESTAMP","value":1000}"#)
        #expect(written(.string("a"), .string) == #"{"type":"STRING","value":"a"}"#)
    }

    @Test func newFieldsAreTypedFromTheirFirstValue() throws {
        let cases: [(String, FieldType?)] = [
            (#"{"value": "a"}"#, .string),
            (#"{"value": 3}"#, .int64),
            (#"{"value": 3.5}"#, .double),
            (#"{"value": 1700000000000, "type": "TIMESTAMP"}"#, .timestamp),
            (#"{"value": {"recordName": "x"}}"#, .reference),
            (#"{"value": {"latitude": 1, "longitude": 2}}"#, .location),
            (#"{"value": {"receipt": "r"}}"#, .asset),
            (#"{"value": ["a"]}"#, .list(.string)),
            (#"{"value": [], "type": "INT64_LIST"}"#, .list(.int64)),
            (#"{"value": []}"#, nil),
            (#"{"value": {"what": 1}}"#, nil),
        ]
        for (text, expected) in cases {
            #expect(CloudKitFieldValue.inferredType(of: try Self.json(text)) == expected, "\(text)")
        }
    }

    /// The JSON text ``CloudKitFieldValue/write(_:type:numbersAsStrings:assetURL:to:)`` writes for `value`.
    static func written(_ value: Value, type: FieldType, assetURL: (Asset) -> String = { _ in "" }) -> String {
        var json = JSONBuffer()
        CloudKitFieldValue.write(value, type: type, assetURL: assetURL, to: &json)
        return json.text
    }
}
