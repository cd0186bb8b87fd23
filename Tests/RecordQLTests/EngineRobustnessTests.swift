import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// Whatever the text, the engine answers with a well-formed response: never a crash or trap.
@Suite("Robustness against arbitrary documents")
struct EngineRobustnessTests {
    static let seeds = [
        #"{ Lists(sort: [{name: DESC}], limit: 2) { name Items(where: {name: {beginsWith: "M"}}) { name list { recordName } } } }"#,
        #"query Q($l: ID!, $n: Int = 3) { ItemsPage(where: {list: {eq: $l}}, limit: $n) { records { ...F } cursor } } fragment F on Items { name }"#,
        #"mutation @transaction(id: "T") { createLists(recordName: "Z", fields: {name: "x"}) { recordName } deleteLists(recordName: "Z") { deleted } }"#,
        #"{ Items(predicate: "name BEGINSWITH[c] 'm' AND list == 'L1'") { __typename ... on Items { name @skip(if: false) } } __schema { types { name } } }"#,
    ]

    /// Tokens spliced into documents: punctuation, keywords, odd literals.
    static let tokens = [
        "{", "}", "(", ")", "[", "]", ":", "$", "...", "@", "!", "=", "\"", "\"\"\"", "#", ",", " ", "\n",
        "on", "null", "true", "9223372036854775808", "-1", "1e999", "\\u0000", "__typename", "Items", "Lists", "$l", "query", "fragment",
    ]

    @Test func mutatedDocumentsGetWellFormedResponses() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        var random = Generator(seed: 0x5EED)
        for round in 0..<600 {
            var characters = Array(Self.seeds[round % Self.seeds.count])
            for _ in 0...random.next(below: 4) {
                let position = random.next(below: characters.count + 1)
                switch random.next(below: 3) {
                case 0 where position < characters.count: characters.remove(at: position)
                case 1: characters.insert(contentsOf: Self.tokens[random.next(below: Self.tokens.count)], at: position)
                default: characters.insert(contentsOf: " ", at: position)
                }
            }
            let document = String(characters)
            let response = await shop.run(document, variables: ["l": "L1"])
            #expect(JSONValue(parsing: response.json) != nil, "\(document) → \(response.json)")
            #expect(response.isSuccess == !response.json.contains(#""errors""#), "\(document) → \(response.json)")
        }
    }

    @Test func concurrentRequestsAllComplete() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let responses = await withTaskGroup(of: GraphQLResponse.self) { group in
            for index in 0..<40 {
                group.addTask {
                    index.isMultiple(of: 4)
                        ? await shop.run(#"mutation { createItems(fields: {name: "N\#(index)", list: {recordName: "L1"}}) { name } }"#)
                        : await shop.run("{ Lists { Items { name } } }")
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.allSatisfy { $0.isSuccess })
        #expect(try shop.database.records(matching: Query("Items")).count == 11)
    }
}

/// SplitMix64: a small deterministic generator, so a failure replays.
struct Generator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
