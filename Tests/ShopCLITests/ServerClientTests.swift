import Foundation
import RecordKit
import RecordQL
import Testing

@testable import ShopCLI

/// The parts of `shop --server` that need no server: where the URL and token come from, the
/// retry schedule, and RecordKit's queries and values as GraphQL and back.
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
        let fromOption = try #require(
            try ServerSettings.resolve(server: "https://shop.example:8443", token: "from-flag", database: "private", environment: environment))
        #expect(fromOption.url == "https://shop.example:8443")
        #expect(fromOption.token == "from-flag")
        #expect(fromOption.endpoint("schema").hasSuffix("/development/private/schema"))
    }

    @Test func theTokenFileIsReadWhenNoTokenIsGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("shop"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "abc123\n".write(to: folder.appendingPathComponent("shop/token"), atomically: true, encoding: .utf8)
        let settings = try ServerSettings.resolve(server: "http://127.0.0.1:1", token: nil, database: nil, environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(settings?.token == "abc123")
    }

    @Test(arguments: ["127.0.0.1:8080", "ftp://host", "http://"])
    func aURLThatIsNotHTTPIsRefusedNamingIt(_ url: String) {
        #expect(throws: RecordError.self) { try ServerSettings.resolve(server: url, token: nil, database: nil, environment: [:]) }
    }

    @Test func anUnknownDatabaseIsRefused() {
        #expect(throws: RecordError.self) { try ServerSettings.resolve(server: "http://h", token: nil, database: "shared", environment: [:]) }
    }

    @Test func retryWaitsGrowWithJitterAndStopAtTheBudget() {
        var schedule = RetrySchedule(budget: .seconds(3))
        var waits: [Duration] = []
        while let wait = schedule.next() { waits.append(wait) }
        #expect(!waits.isEmpty)
        #expect(waits[0] >= .milliseconds(100) && waits[0] <= .milliseconds(200))
        #expect(waits.allSatisfy { $0 <= RetrySchedule.maximumCeiling })
        #expect(waits.count >= 3)
        var none = RetrySchedule(budget: .milliseconds(50))
        #expect(none.next() == nil)
    }

    @Test func aQueryBecomesADocumentWithItsPredicateInAVariable() throws {
        let items = try #require(try Schema.shopping.recordType(named: "Items"))
        let query = Query("Items", predicate: PredicateField("name") == .string("it's"), sort: [SortDescriptor("name", ascending: false)], limit: 2)
        let (document, variables) = GraphQLRecords.document(for: query, type: items)
        #expect(document.hasPrefix("query($predicate: String) { records: Items(predicate: $predicate, sort: [{name: DESC}], limit: 2) {"))
        #expect(document.contains("list { recordName }"))
        let predicate = try #require(variables["predicate"])
        guard case .string(let text) = predicate else { Issue.record("the predicate is not text"); return }
        #expect(try PredicateParser.parse(text) == query.predicate)
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
            #expect(GraphQLRecords.value(json, type: type) == value, "\(value)")
        }
        #expect(GraphQLRecords.value(.null, type: .string) == nil)
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
}
