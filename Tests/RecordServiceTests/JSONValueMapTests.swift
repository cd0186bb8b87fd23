import Foundation
import GraphQL
import Testing

@testable import RecordService

@Suite("Decoding GraphQL request JSON into Map")
struct JSONValueMapTests {
    static let documents = [
        #"{"query":"{ Lists { name } }","operationName":null,"variables":{"n":3,"x":1.5,"ok":true,"none":null}}"#,
        #"{"variables":{"records":[{"recordName":"a","fields":{"z":"1","a":[1,2,{"b":false}]}},{"recordName":"b"}],"empty":{},"list":[]}}"#,
        #"["text", -0.25, 1e3, [[]], {"é":"ü\n"}]"#,
        #""just a string""#,
    ]

    /// Compact JSON of a map, members sorted: the decoder's order of an object's members is
    /// its own (neither decoder keeps the text's), and no consumer depends on it.
    static func sortedText(_ map: Map) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(map), as: UTF8.self)
    }

    @Test(arguments: documents)
    func decodesWhatGraphQLSwiftsOwnDecoderDecodes(json: String) throws {
        let expected = try JSONDecoder().decode(Map.self, from: Data(json.utf8))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)).map
        #expect(try Self.sortedText(decoded) == Self.sortedText(expected))
    }

    @Test func decodesNumbersAsDoublesAsMapDoes() throws {
        let json = Data(#"{"n":3}"#.utf8)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: json).map
        let expected = try JSONDecoder().decode(Map.self, from: json)
        guard case .number(let number)? = decoded.dictionary?["n"], case .number(let original)? = expected.dictionary?["n"] else {
            Issue.record("n is not a number: \(decoded)")
            return
        }
        #expect(number.storageType == .double)
        #expect(number.storageType == original.storageType)
        #expect(number.doubleValue == 3)
    }

    @Test func refusesTextThatIsNotJSON() {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(JSONValue.self, from: Data(#"{"query": }"#.utf8)) }
    }
}
