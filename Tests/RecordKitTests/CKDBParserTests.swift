import Foundation
import Testing

@testable import RecordKit

/// Reading CKDB: real CloudKit schemas and our own fixtures parse into the schemas they declare
/// and survive printing and parsing again.
struct CKDBParserTests {
    @Test func fixturesHoldTwentyOnePublishedSchemasAndFourOfOurOwn() {
        #expect(CKDBFixtures.names(prefix: "real-").count >= 21)
        #expect(CKDBFixtures.names(prefix: "own-").count >= 4)
    }

    @Test(arguments: CKDBFixtures.names(prefix: "real-") + CKDBFixtures.names(prefix: "own-"))
    func realCloudKitSchemasRoundTrip(fixture: String) throws {
        let schema = try CKDBParser.parse(CKDBFixtures.text(fixture))
        let printed = CKDBPrinter.print(schema)
        let reparsed = try CKDBParser.parse(printed)
        #expect(reparsed == schema)
        #expect(CKDBPrinter.print(reparsed) == printed)
        #expect(!schema.recordTypes.isEmpty)
    }

    /// These files are untouched `cktool export-schema` output (or written in its layout), so
    /// printing what they declare gives back the very same text.
    @Test(arguments: [
        "real-clarsen1010-flappybird.ckdb", "real-grifftatarsky-outpost.ckdb", "real-jestatsio-reolens.ckdb",
        "real-MoYuM-AngelLive.ckdb", "real-ngs-tides-swift.ckdb", "real-pvillareal-gutenberg-rdf-parser.ckdb",
        "real-wpowiertowski-healthloom.ckdb", "own-every-field-type.ckdb",
    ])
    func cktoolExportsPrintBackByteForByte(fixture: String) throws {
        let text = CKDBFixtures.withoutLeadingComments(try CKDBFixtures.text(fixture))
        #expect(CKDBPrinter.print(try CKDBParser.parse(text)) == text)
    }

    @Test func commentsAndKeywordCaseDoNotChangeTheSchema() throws {
        let schema = try CKDBParser.parse(CKDBFixtures.text("own-comments-everywhere.ckdb"))
        let notes = RecordType(
            "Notes",
            fields: [
                FieldDefinition("body", .string, flags: [.queryable, .searchable]),
                FieldDefinition("pinned", .int64, flags: .sortable),
                FieldDefinition("___modTime", .timestamp, flags: [.queryable, .sortable]),
                FieldDefinition("labels", .list(.string)),
            ],
            grants: [Grant([.read, .write], to: "_creator"), Grant([.write], to: "Editor")]
        )
        #expect(schema == Schema(roles: ["Editor"], recordTypes: [notes]))
    }

    @Test func everyFieldTypeIsRead() throws {
        let schema = try CKDBParser.parse(CKDBFixtures.text("own-every-field-type.ckdb"))
        let primitives = try #require(schema.recordType(named: "Primitives"))
        let types = Dictionary(uniqueKeysWithValues: primitives.fields.map { ($0.name, $0.type) })
        #expect(types["anyNumber"] == .number(preferred: nil))
        #expect(types["wholeNumber"] == .number(preferred: .int64))
        #expect(types["preciseNumber"] == .number(preferred: .double))
        #expect(types["position"] == .location)
        #expect(types["attachment"] == .asset)
        #expect(primitives.field(named: "___modTime")?.flags == [.queryable, .sortable])

        let lists = try #require(schema.recordType(named: "Lists"))
        #expect(lists.field(named: "places")?.type == .list(.location))
        #expect(lists.field(named: "steps")?.type == .list(.number(preferred: .int64)))

        let encrypted = try #require(schema.recordType(named: "Secrets"))
        #expect(encrypted.userFields.allSatisfy { $0.isEncrypted })
        #expect(encrypted.field(named: "secretTexts")?.type == .list(.string))
        #expect(encrypted.field(named: "secretPlace")?.type == .location)
    }

    @Test func encryptedFieldsOfRealSchemasKeepTheirType() throws {
        let reolens = try CKDBParser.parse(CKDBFixtures.text("real-jestatsio-reolens.ckdb"))
        let password = reolens.recordType(named: "CameraCredential")?.field(named: "password")
        #expect(password == FieldDefinition("password", .string, isEncrypted: true))

        let lorvex = try CKDBParser.parse(CKDBFixtures.text("real-boyugou-lorvex.ckdb"))
        let version = lorvex.recordType(named: "LorvexAuditRetentionMetadata")?.field(named: "protocol_version")
        #expect(version == FieldDefinition("protocol_version", .int64, isEncrypted: true))
    }

    @Test func customRolesAndTheirGrantsAreKept() throws {
        let dispatch = try CKDBParser.parse(CKDBFixtures.text("real-robbiet480-Dispatch.ckdb"))
        #expect(dispatch.roles == ["moderator"])
        let catalog = try #require(dispatch.recordType(named: "CatalogQuestion"))
        #expect(catalog.grants == [Grant([.read], to: "_world"), Grant([.create, .write], to: "moderator")])

        let own = try CKDBParser.parse(CKDBFixtures.text("own-roles-and-grants.ckdb"))
        #expect(own.roles == ["Moderator", "Publisher", "auditor"])
        let post = try #require(own.recordType(named: "Post"))
        #expect(post.fields.map(\.name) == ["title", "body"])
        #expect(post.grants.count == 7)
        #expect(post.grants[4] == Grant([.write, .read], to: "Publisher"))
        #expect(own.recordType(named: "Empty") == RecordType("Empty"))
        #expect(own.recordType(named: "OnlyGrants")?.grants.count == 2)
    }

    @Test func quotedNamesMayBeKeywords() throws {
        let schema = try CKDBParser.parse(CKDBFixtures.text("own-quoted-keyword-names.ckdb"))
        #expect(schema.recordTypes.map(\.name) == ["RECORD", "Users", "type"])
        #expect(schema.recordType(named: "RECORD")?.fields.map(\.name) == ["GRANT", "from", "to", "name", "Schema"])
        let users = try #require(schema.recordType(named: "Users"))
        #expect(
            users.fields.map(\.name) == [
                "___recordID", "role", "type", "list", "timestamp", "read", "write", "queryable", "number",
            ])
        #expect(users.field(named: "list")?.type == .reference)

        let pangsai = try CKDBParser.parse(CKDBFixtures.text("real-leewchaha-pangsai-ios.ckdb"))
        #expect(pangsai.recordType(named: "Ping")?.field(named: "to")?.flags == .queryable)
    }

    @Test func systemFieldsAreKeptInDeclarationOrderWithTheirFlags() throws {
        let schema = try CKDBParser.parse(CKDBFixtures.text("real-Mweh-Arterious.ckdb"))
        let daily = try #require(schema.recordType(named: "DailyHealth"))
        #expect(daily.fields.prefix(2).map(\.systemField) == [.recordID, .createTime])
        #expect(daily.field(named: "___createTime")?.flags == [.queryable, .sortable])
        #expect(daily.userFields.map(\.name) == ["date", "heartRate", "sleepDuration", "steps"])
    }

    @Test func schemaConvenienceReadsAndWritesCKDB() throws {
        let text = try CKDBFixtures.text("real-ngs-tides-swift.ckdb")
        let schema = try Schema(ckdb: text)
        #expect(schema == (try CKDBParser.parse(text)))
        #expect(schema.ckdb == CKDBPrinter.print(schema))
    }

    @Test func windowsLineEndingsAndAByteOrderMarkAreWhitespace() throws {
        let text = try CKDBFixtures.text("real-jestatsio-reolens.ckdb")
        let windows = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try CKDBParser.parse(windows) == (try CKDBParser.parse(text)))
    }

    /// Where a text declares a record type or one of its fields (the type for a field it does not
    /// declare), names compared ignoring case; nothing for a type it does not declare or a text
    /// that does not parse.
    @Test func locatesTheDeclarationOfARecordTypeOrField() {
        let text = """
            DEFINE SCHEMA
                RECORD TYPE Lists ( name STRING );
                RECORD TYPE "Items" (
                    GRANT READ TO "_world",
                    Count INT64
                );
            """
        let field = CKDBParser.location(ofRecordType: "items", field: "count", in: text)
        #expect(field.map { [$0.line, $0.column] } == [5, 9])
        #expect(field?.lineText == "        Count INT64")
        let type = CKDBParser.location(ofRecordType: "Items", in: text)
        #expect(type.map { [$0.line, $0.column] } == [3, 17])
        #expect(CKDBParser.location(ofRecordType: "Lists", field: "name", in: text).map { [$0.line, $0.column] } == [2, 25])
        // A field the type does not declare: the type's declaration.
        #expect(CKDBParser.location(ofRecordType: "Items", field: "name", in: text).map { [$0.line, $0.column] } == [3, 17])
        #expect(CKDBParser.location(ofRecordType: "Stores", in: text) == nil)
        #expect(CKDBParser.location(ofRecordType: "Lists", in: "DEFINE SCHEMA\n RECORD TYPE Lists ( name STRINGG );") == nil)
    }

    @Test func anEmptySchemaIsJustTheHeader() throws {
        #expect(try CKDBParser.parse("define schema") == Schema())
        #expect(try CKDBParser.parse("-- nothing yet\nDEFINE SCHEMA\n/* later */") == Schema())
    }
}
