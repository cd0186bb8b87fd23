import Foundation
import RecordKit
import RecordQL
import Testing

@testable import ShopCLI

/// The parts of `shop --server` that need no server: where the URL and token come from, the
/// retry schedule, RecordKit's queries and values as GraphQL and back, stored values read from
/// CloudKit's JSON, and the server's errors in the engine's terms.
@Suite struct ServerClientTests {
    @Test func noServerMeansTheFile() throws {
        #expect(try ServerSettings.resolve(server: nil, token: nil, database: nil, environment: [:]) == nil)
    }

    @Test func theServerComesFromTheOptionElseTheEnvironment() throws {
        let environment = ["SHOP_SERVER": "http://127.0.0.1:9000/", "SHOP_TOKEN": "from-env"]
        let fromEnvironment = try #require(try ServerSettings.resolve(server: nil, token: nil, database: nil, environment: environment))
        #expect(fromEnvironment.url == "http://127.0.0.1:9000")
        #expect(fromEnvironment.token == "from-env")
        #expect(fromEnvironment.endpoint("graphql") == "http://127.0.0.1:9000/database/1/iCloud.shop/development/public/graphql")
        #expect(!ServerSettings.isSecure(fromEnvironment.url) && ServerSettings.otherScheme(of: fromEnvironment.url) == "https://127.0.0.1:9000")
        let fromOption = try #require(
            try ServerSettings.resolve(server: "https://shop.example:8443", token: "from-flag", database: "private", environment: environment))
        #expect(fromOption.url == "https://shop.example:8443")
        #expect(fromOption.token == "from-flag")
        #expect(fromOption.endpoint("schema").hasSuffix("/development/private/schema"))
        #expect(ServerSettings.isSecure(fromOption.url) && ServerSettings.otherScheme(of: fromOption.url) == "http://shop.example:8443")
    }

    @Test func theTokenFileIsReadWhenNoTokenIsGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("shop"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "abc123\n".write(to: folder.appendingPathComponent("shop/token"), atomically: true, encoding: .utf8)
        let settings = try ServerSettings.resolve(server: "http://127.0.0.1:1", token: nil, database: nil, environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(settings?.token == "abc123")
    }

    @Test(arguments: ["http://127.0.0.1:99999", "http://[::1]:65536", "https://shop.example:0", "http://127.0.0.1:99999999999999999999", "http://h:"])
    func aPortOutsideOneTo65535IsRefusedNamingIt(_ url: String) {
        #expect {
            try ServerSettings.resolve(server: url, token: nil, database: nil, environment: [:])
        } throws: { error in
            (error as? RecordError)?.message.contains("a port is 1 to 65535") == true
        }
    }

    @Test(arguments: ["inf", "1e309", "99999999999999999999", "nan", "abc", "-1", "0", "86401"])
    func aTimeoutOrRetryBudgetThatIsNotSecondsAboveZeroIsRefusedNamingIt(_ text: String) {
        for variable in ["SHOP_SERVER_TIMEOUT", "SHOP_SERVER_RETRY"] {
            #expect {
                try ServerSettings.resolve(server: "http://127.0.0.1:1", token: nil, database: nil, environment: [variable: text])
            } throws: { error in
                let example = variable == "SHOP_SERVER_RETRY" ? 30 : 10
                return (error as? RecordError)?.message == "$\(variable) is a number of seconds above 0 and at most 86400 (e.g. \(example)), not '\(text)'"
            }
        }
        let settings = try? ServerSettings.resolve(server: "http://127.0.0.1:1", token: nil, database: nil, environment: ["SHOP_SERVER_RETRY": "1.5"])
        #expect(settings?.retryBudget == .milliseconds(1500))
    }

    @Test(arguments: ["127.0.0.1:8080", "ftp://host", "http://"])
    func aURLThatIsNotHTTPIsRefusedNamingIt(_ url: String) {
        #expect(throws: RecordError.self) { try ServerSettings.resolve(server: url, token: nil, database: nil, environment: [:]) }
    }

    @Test func aTLSFailureIsSaidAsAPersonReadsItWithoutTheLibrarysSourceLocations() {
        let unverified =
            "handshakeFailed(sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED "
            + "at /build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/ssl/handshake.cc:320]))"
        #expect(TransportFailure.tlsReason(unverified) == "the server's certificate is not signed by an authority this client trusts")
        let other = "handshakeFailed(sslError([Error: 1 error:1:SSL routines:OPENSSL_internal:SOMETHING at /x/y.cc:12]))"
        #expect(TransportFailure.tlsReason(other) == "handshakeFailed(sslError([Error: 1 error:1:SSL routines:OPENSSL_internal:SOMETHING]))")
        #expect(!TransportFailure.tls("x").isRetryable)
    }

    @Test func anUnknownDatabaseIsRefused() {
        #expect(throws: RecordError.self) { try ServerSettings.resolve(server: "http://h", token: nil, database: "shared", environment: [:]) }
    }

    @Test func retryWaitsGrowWithJitterAndTheLastAttemptIsMadeAsTheBudgetEnds() {
        // A clock that moves only by the waits the schedule hands out (attempts take no time).
        final class Clock: @unchecked Sendable { var now = ContinuousClock.now }
        let clock = Clock()
        var schedule = RetrySchedule(budget: .seconds(8)) { clock.now }
        var waits: [Duration] = []
        while let wait = schedule.next() {
            waits.append(wait)
            clock.now += wait
        }
        #expect(waits[0] >= .milliseconds(100) && waits[0] <= .milliseconds(200))
        #expect(waits.allSatisfy { $0 > .zero && $0 <= RetrySchedule.maximumCeiling })
        #expect(waits.count >= 5)
        // The waits add up to the whole budget: the last one is cut to end with it.
        #expect(waits.reduce(.zero, +) == .seconds(8))
        #expect(schedule.elapsed == .seconds(8))
        var spent = RetrySchedule(budget: .zero)
        #expect(spent.next() == nil)
    }

    @Test func aQueryBecomesAPageWithItsPredicateAndCursorInVariables() throws {
        let items = try #require(try Schema.shopping.recordType(named: "Items"))
        let query = Query("Items", predicate: PredicateField("name").beginsWith("it's"), sort: [SortDescriptor("name", ascending: false)], limit: 2)
        let (document, variables) = GraphQLRecords.page(of: query, type: items, size: 2, after: "c1")
        #expect(
            document.hasPrefix(
                "query($predicate: String, $after: String) { page: ItemsPage(predicate: $predicate, sort: [{name: DESC}], limit: 2, after: $after) { records {")
        )
        #expect(document.contains("list { recordName }") && document.hasSuffix("} cursor } }"))
        #expect(variables["after"] == .string("c1"))
        let predicate = try #require(variables["predicate"])
        guard case .string(let text) = predicate else { Issue.record("the predicate is not text"); return }
        #expect(try PredicateParser.parse(text) == query.predicate)
        // Every variable declared is used (GraphQL refuses one that is not).
        let all = GraphQLRecords.page(of: Query("Items"), type: items, size: 5, after: nil)
        #expect(all.document.hasPrefix("query($after: String) { page: ItemsPage(limit: 5, after: $after) {"))
    }

    /// A look-up by name goes out as a `where:` filter with the names in variables: a name of
    /// any length is found, where a predicate's text stops at 10,000 characters.
    @Test func aLookUpByNameBecomesAWhereFilterWithTheNamesInVariables() throws {
        let items = try #require(try Schema.shopping.recordType(named: "Items"))
        let long = String(repeating: "x", count: 20_000)
        let query = Query("Items", predicate: PredicateField("list") == .string("L1") && PredicateField("name") == .string(long), limit: 1)
        let (document, variables) = GraphQLRecords.page(of: query, type: items, size: 1, after: nil)
        #expect(
            document.hasPrefix(
                "query($after: String, $value0: ID, $value1: String) { page: ItemsPage(where: {list: {eq: $value0}, name: {eq: $value1}}, limit: 1"))
        #expect(variables["value0"] == .string("L1") && variables["value1"] == .string(long))
    }

    @Test func valuesGoOutAsGraphQLInputAndComeBackTheSame() {
        let values: [(Value, FieldType)] = [
            (.string("Milk"), .string), (.int64(-3), .int64), (.double(2.5), .double),
            (.timestamp(Date(timeIntervalSince1970: 1_700_000_000)), .timestamp), (.bytes(Data([0, 1, 255])), .bytes),
            (.reference(Reference("L1")), .reference), (.location(Location(latitude: 1.5, longitude: -2)), .location),
            (.list([.int64(1), .int64(2)]), .list(.int64)),
        ]
        for (value, type) in values {
            let json: JSONValue =
                if case .reference(let reference) = value { .members(["recordName": .string(reference.recordName)]) } else { GraphQLRecords.input(value) }
            #expect(ServerValueForm.graphQL.value(json, type: type) == value, "\(value)")
        }
        #expect(ServerValueForm.graphQL.value(.null, type: .string) == nil)
    }

    @Test func aGoneReferenceIsLeftOutOfAGraphQLListButACloudKitListWithAnUnreadableValueIsRefused() {
        let list = JSONValue.array([.members(["recordName": .string("A")]), .null])
        #expect(ServerValueForm.graphQL.value(list, type: .list(.reference)) == .list([.reference(Reference("A"))]))
        #expect(ServerValueForm.cloudKit.value(list, type: .list(.reference)) == nil)
        #expect(ServerValueForm.graphQL.value(.number("1700000000000"), type: .timestamp) == nil)
        #expect(ServerValueForm.cloudKit.value(.number("1700000000000"), type: .timestamp) == .timestamp(Timestamp.date(milliseconds: 1_700_000_000_000)))
    }

    @Test func aServerErrorKeepsTheEngineCode() {
        let document = JSONValue(parsing: #"{"errors":[{"message":"Items has no field 'x'","extensions":{"code":"schemaViolation"}}]}"#)!
        let errors = ServerErrors.graphQLErrors(in: document)
        #expect(errors.map(\.code) == [.schemaViolation])
        let notFound = ServerResponse(
            status: 404, body: Data(#"{"uuid":"u","serverErrorCode":"NOT_FOUND","reason":"no transaction 'x'"}"#.utf8), isReplay: false)
        let error = ServerErrors.error(of: notFound, url: "http://h")
        #expect(error.code == .unknownItem)
        #expect(error.message == "no transaction 'x'")
        let refused = ServerErrors.error(of: ServerResponse(status: 401, body: Data(), isReplay: false), url: "http://h")
        #expect(refused.message.hasPrefix("the server at http://h refused the credential"))
    }

    @Test func anotherServersPageIsSaidByItsTitleOrFirstLineWithHTTPSSuggestedWhenItAsksForIt() {
        func message(_ status: Int, _ body: String, url: String = "http://h:8443") -> String {
            ServerErrors.error(of: ServerResponse(status: status, body: Data(body.utf8), isReplay: false), url: url).message
        }
        // Go's (and Caddy's) answer to plain HTTP on a TLS port; nginx's page.
        #expect(
            message(400, "Client sent an HTTP request to an HTTPS server.\n")
                == "the server at http://h:8443 answered 400 (Client sent an HTTP request to an HTTPS server.); use https://h:8443")
        let nginx = "<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body></body></html>"
        #expect(message(400, nginx) == "the server at http://h:8443 answered 400 (400 The plain HTTP request was sent to HTTPS port); use https://h:8443")
        #expect(message(500, "\n  upstream\tfailed \u{7}here\n second line") == "the server at http://h:8443 answered 500 (upstream failed here); see its log")
        #expect(message(400, "see https docs", url: "https://h") == "the server at https://h answered 400 (see https docs); see its log")
        let long = message(500, String(repeating: "x", count: 500))
        #expect(long.hasSuffix(String(repeating: "x", count: ServerErrors.gistLength - 1) + "…); see its log"))
        // Nothing to tell: no body, a page with no title, bytes that are not text.
        for body in [Data(), Data("<html><body>oops</body></html>".utf8), Data([0xFF, 0xFE, 0x00])] {
            let error = ServerErrors.error(of: ServerResponse(status: 500, body: body, isReplay: false), url: "http://h")
            #expect(error.message == "the server at http://h answered 500 without saying why; see its log")
        }
    }

    @Test func storedValuesComeBackFromCloudKitJSONExactly() throws {
        let things = try #require(ImportExportTests.schema.recordType(named: "Things"))
        let json = try #require(
            JSONValue(
                parsing: """
                    {"recordName":"A","recordType":"Things","recordChangeTag":"t1","created":{"timestamp":1732000000123},
                     "fields":{"owner":{"value":{"recordName":"gone","action":"DELETE_SELF"},"type":"REFERENCE"},
                     "owners":{"value":[{"recordName":"B","action":"NONE"}]},"ratio":{"value":2.0},"amount":{"value":3},
                     "at":{"value":1732000000123},"file":{"value":{"fileChecksum":"abc","size":3,"downloadURL":"http://h/x"}},
                     "places":{"value":[{"latitude":1.5,"longitude":-2.0}]},"blob":{"value":"AAH/"},"counts":{"value":[9223372036854775807]}}}
                    """))
        let record = try CloudKitRecords.record(json, of: things)
        #expect(record.recordName == "A")
        #expect(record.changeTag == "t1")
        #expect(record.createdAt == Timestamp.date(milliseconds: 1_732_000_000_123))
        // A reference keeps its action, and its recordName although the record it names is gone.
        #expect(record.fields["owner"] == .reference(Reference("gone", action: .deleteSelf)))
        #expect(record.fields["owners"] == .list([.reference(Reference("B", action: .none))]))
        #expect(record.fields["ratio"] == .double(2))
        #expect(record.fields["amount"] == .int64(3))
        #expect(record.fields["at"] == .timestamp(Timestamp.date(milliseconds: 1_732_000_000_123)))
        #expect(record.fields["file"] == .asset(Asset(size: 3, sha256: "abc")))
        #expect(record.fields["places"] == .list([.location(Location(latitude: 1.5, longitude: -2))]))
        #expect(record.fields["blob"] == .bytes(Data([0, 1, 255])))
        #expect(record.fields["counts"] == .list([.int64(Int64.max)]))
        #expect(record.fields["text"] == nil)
    }

    @Test func aStoredValueOfAnotherTypeIsRefusedNamingTheField() throws {
        let things = try #require(ImportExportTests.schema.recordType(named: "Things"))
        let json = try #require(JSONValue(parsing: #"{"recordName":"A","fields":{"count":{"value":"many"}}}"#))
        #expect {
            try CloudKitRecords.record(json, of: things)
        } throws: { error in
            (error as? RecordError)?.message.contains("Things.count of A") == true
        }
    }

    @Test func aGraphQLErrorKeepsItsPathReasonRemedyAndPlace() throws {
        let document = try #require(
            JSONValue(
                parsing: """
                    {"errors":[{"message":"Items has no field 'colour'","locations":[{"line":2,"column":11}],"path":["result",3],
                     "extensions":{"code":"schemaViolation","reason":"unknownField","remedy":{"kind":"addField","recordType":"Items","field":"colour"}}}]}
                    """))
        let error = try #require(ServerErrors.graphQLErrors(in: document).first)
        #expect(error.path == [.key("result"), .index(3)])
        #expect(error.reason == .unknownField)
        #expect(error.remedy == .addField(recordType: "Items", field: "colour", type: nil))
        let engineError = ServerErrors.recordError(error, document: "{\n  Items { colour } }")
        #expect(engineError.location == SourceLocation(line: 2, column: 11, lineText: "  Items { colour } }"))
        #expect(engineError.shownDescription == "schemaViolation: 2:11: Items has no field 'colour'; add it with: schema add-field Items colour <TYPE>")
        let tooLarge = ServerErrors.error(of: ServerResponse(status: 413, body: Data(), isReplay: false), url: "http://h")
        #expect(tooLarge.code == .limitExceeded)
        #expect(tooLarge.message.contains("split an import's file"))
    }

    @Test func eachImportRowKeepsItsLineItsRecordAndItsInput() throws {
        let schema = try Schema.shopping
        let generated = try RecordQLSchema(schema)
        let items = try schema.requireRecordType("Items")
        let names = try #require(generated.names["Items"])
        let text = "recordName,name,list\nI1,Milk,\"{\"\"recordName\"\":\"\"L1\"\",\"\"action\"\":\"\"DELETE_SELF\"\"}\"\n,Eggs,\n"
        let file = ImportFile(
            recordType: items, translator: try generated.fieldInputTranslator(for: "Items"), inputNames: names.fields, path: "items.csv",
            bytes: Array(text.utf8), format: .csv)
        var rows: [ImportFile.Row] = []
        var progress = ProgressBar(console: Console(write: { _ in }, writeError: { _ in }), label: "import", interruption: Interruption())
        try file.forEachRow(progress: &progress) { rows.append($0) }
        #expect(rows.map(\.line) == [2, 3])
        #expect(rows[0].record.recordName == "I1")
        #expect(rows[0].record.fields["list"] == .reference(Reference("L1", action: .deleteSelf)))
        #expect(rows[0].fields == .members(["name": .string("Milk"), "list": .members(["recordName": .string("L1"), "action": .string("DELETE_SELF")])]))
        #expect(rows[1].record.fields == ["name": .string("Eggs")])
        #expect(file.located(RecordError(.serverRecordChanged, "I1 exists"), line: 3).message == "items.csv:3: I1 exists")
    }
}
