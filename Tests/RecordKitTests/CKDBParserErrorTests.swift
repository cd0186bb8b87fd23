import Testing

@testable import RecordKit

/// Malformed CKDB is refused with `invalidArguments`, located at the offending token, with a
/// message saying what was expected and what was found.
struct CKDBParserErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let lines: [String]
        let line: Int
        let column: Int
        let message: String

        var testDescription: String { name }
        var text: String { lines.joined(separator: "\n") }
    }

    static let cases: [Case] = [
        Case(
            name: "missing opening paren", lines: ["DEFINE SCHEMA", "    RECORD TYPE Items", "        name STRING", "    );"],
            line: 3, column: 9, message: "expected '(' after RECORD TYPE Items but found 'name'"),
        Case(
            name: "missing closing paren", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    name STRING", ";"],
            line: 4, column: 1,
            message: "expected QUERYABLE, SEARCHABLE, SORTABLE, NOT EMPTY, ',' or ')' after field 'name' but found ';'"),
        Case(
            name: "unknown type", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    name     STRIN QUERYABLE", ");"],
            line: 3, column: 14,
            message: "expected a field type (STRING, INT64, DOUBLE, NUMBER, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION or LIST<…>) but found 'STRIN'"),
        Case(
            name: "name starting with a digit", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    2name STRING", ");"],
            line: 3, column: 5, message: "'2name' is not a valid field name"),
        Case(
            name: "record type name starting with _", lines: ["DEFINE SCHEMA", "  RECORD TYPE _Items ();"],
            line: 2, column: 15, message: "names starting with '_' are reserved"),
        Case(
            name: "duplicate field differing in case", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    name STRING,", "    Name INT64", ");"],
            line: 4, column: 5, message: "duplicate field 'Name': already declared on line 3 as 'name'"),
        Case(
            name: "duplicate record type", lines: ["DEFINE SCHEMA", "RECORD TYPE Items ();", "RECORD TYPE Items ();"],
            line: 3, column: 13, message: "duplicate record type 'Items': already declared on line 2"),
        Case(
            name: "duplicate role", lines: ["DEFINE SCHEMA", "CREATE ROLE Editor;", "CREATE ROLE editor;"],
            line: 3, column: 13, message: "duplicate role 'editor': already declared on line 2 as 'Editor'"),
        Case(
            name: "unterminated comment", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    name STRING /* never closed", ");"],
            line: 3, column: 17, message: "unterminated comment"),
        Case(
            name: "unterminated quoted name", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    \"name STRING,", ");"],
            line: 3, column: 5, message: "unterminated quoted name"),
        Case(
            name: "quote inside a name", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    na\"me STRING", ");"],
            line: 3, column: 7, message: "unterminated quoted name"),
        Case(
            name: "unknown permission in GRANT", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    GRANT DELETE TO \"_creator\"", ");"],
            line: 3, column: 11, message: "expected READ, CREATE or WRITE (a field named GRANT is written \"GRANT\") but found 'DELETE'"),
        Case(
            name: "unquoted field named GRANT", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    grant STRING", ");"],
            line: 3, column: 11, message: "a field named GRANT is written \"GRANT\""),
        Case(
            name: "unknown permission after a comma", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (GRANT READ, name STRING);"],
            line: 2, column: 32, message: "expected READ, CREATE or WRITE but found 'name'"),
        Case(
            name: "GRANT without TO", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    GRANT READ, WRITE \"_creator\"", ");"],
            line: 3, column: 23, message: "expected ',' or TO after GRANT READ, WRITE but found \"_creator\""),
        Case(
            name: "unknown system role", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (GRANT READ TO \"_everyone\");"],
            line: 2, column: 34, message: "unknown system role '_everyone'"),
        Case(
            name: "system field with the wrong type", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    \"___createTime\" STRING", ");"],
            line: 3, column: 21, message: "system field \"___createTime\" has type TIMESTAMP and can't be declared STRING"),
        Case(
            name: "encrypted system field", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (\"___etag\" ENCRYPTED STRING);"],
            line: 2, column: 30, message: "can't be declared ENCRYPTED STRING"),
        Case(
            name: "unknown system field", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    \"___recordName\" STRING", ");"],
            line: 3, column: 5, message: "'___recordName' is not a system field"),
        Case(
            name: "name with a semicolon", lines: ["DEFINE SCHEMA", "RECORD TYPE \"Items; DROP TABLE Lists\" ();"],
            line: 2, column: 13, message: "'Items; DROP TABLE Lists' is not a valid record type name"),
        Case(
            name: "quoted name with --", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    \"na--me\" STRING", ");"],
            line: 3, column: 5, message: "'na--me' is not a valid field name"),
        Case(
            name: "bare name with -- starts a comment", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    na--me STRING", ");"],
            line: 4, column: 1,
            message: "expected a field type (STRING, INT64, DOUBLE, NUMBER, TIMESTAMP, BYTES, REFERENCE, ASSET, LOCATION or LIST<…>) but found ')'"),
        Case(
            name: "unexpected character", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (", "    e@mail STRING", ");"],
            line: 3, column: 6, message: "unexpected character '@'"),
        Case(
            name: "missing DEFINE SCHEMA", lines: ["// a comment first", "RECORD TYPE Items ();"],
            line: 2, column: 1, message: "expected DEFINE SCHEMA but found 'RECORD'"),
        Case(name: "empty text", lines: [""], line: 1, column: 1, message: "expected DEFINE SCHEMA but found the end of the text"),
        Case(
            name: "missing semicolon between types", lines: ["DEFINE SCHEMA", "RECORD TYPE A ()", "RECORD TYPE B ();"],
            line: 3, column: 1, message: "expected ';' after the ')' closing RECORD TYPE A but found 'RECORD'"),
        Case(
            name: "unknown statement", lines: ["DEFINE SCHEMA", "DROP TYPE Items;"],
            line: 2, column: 1, message: "expected CREATE ROLE or RECORD TYPE but found 'DROP'"),
        Case(
            name: "empty item between commas", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (name STRING,, size INT64);"],
            line: 2, column: 32, message: "expected a field name or GRANT but found ','"),
        Case(
            name: "encrypted field with an index", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (secret ENCRYPTED STRING QUERYABLE);"],
            line: 2, column: 44, message: "encrypted field 'secret' can't be QUERYABLE"),
        Case(
            name: "ENCRYPTED on a type CloudKit can't encrypt", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (owner ENCRYPTED REFERENCE);"],
            line: 2, column: 36, message: "ENCRYPTED applies to BYTES, DOUBLE, INT64, LOCATION, STRING and TIMESTAMP, not REFERENCE"),
        Case(
            name: "ENCRYPTED outside a list", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (tags ENCRYPTED LIST<STRING>);"],
            line: 2, column: 35, message: "write LIST<ENCRYPTED …>"),
        Case(
            name: "list of lists", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (grid LIST<LIST<INT64>>);"],
            line: 2, column: 30, message: "a LIST can't hold lists"),
        Case(
            name: "unclosed list", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (tags LIST<STRING QUERYABLE);"],
            line: 2, column: 37, message: "expected '>' to close LIST<STRING but found 'QUERYABLE'"),
        Case(
            name: "unknown number preference", lines: ["DEFINE SCHEMA", "RECORD TYPE Items (n NUMBER PREFERRED AS STRING);"],
            line: 2, column: 42, message: "expected INT64 or DOUBLE after NUMBER PREFERRED AS but found 'STRING'"),
        Case(
            name: "role name with a dot", lines: ["DEFINE SCHEMA", "CREATE ROLE \"team.lead\";"],
            line: 2, column: 13, message: "'team.lead' is not a valid role name"),
    ]

    @Test(arguments: cases)
    func malformedSchemaReportsLineAndColumn(_ testCase: Case) {
        #expect {
            try CKDBParser.parse(testCase.text)
        } throws: { error in
            guard let error = error as? RecordError, let location = error.location else { return false }
            #expect(error.code == .invalidArguments)
            #expect(location.line == testCase.line)
            #expect(location.column == testCase.column)
            #expect(error.message.contains(testCase.message), "\(error.message)")
            return true
        }
    }

    @Test func errorsShowTheLineWithACaretUnderTheToken() throws {
        let text = "DEFINE SCHEMA\nRECORD TYPE Items (\n    name     STRIN\n);"
        let error = try #require(throws: RecordError.self) { try CKDBParser.parse(text) }
        #expect(error.location?.excerpt == "    name     STRIN\n             ^")
        #expect(error.description.hasPrefix("invalidArguments: 3:14: expected a field type"))
    }

    /// `cloudkit.` names are CloudKit's own: only its system record types may use them, and
    /// only inside those may fields be named `cloudkit.…`.
    @Test func cloudKitNamesAreOnlyForCloudKitSystemTypes() throws {
        let userType = "DEFINE SCHEMA\nRECORD TYPE Items (\n    \"cloudkit.title\" STRING\n);"
        let error = try #require(throws: RecordError.self) { try CKDBParser.parse(userType) }
        #expect(error.location?.line == 3)
        #expect(error.location?.column == 5)
        #expect(throws: RecordError.self) { try CKDBParser.parse("DEFINE SCHEMA RECORD TYPE \"cloudkit.\" ();") }
        #expect(throws: RecordError.self) { try CKDBParser.parse("DEFINE SCHEMA RECORD TYPE \"cloudkit.share\" (\"cloudkit.a;b\" STRING);") }
    }
}
