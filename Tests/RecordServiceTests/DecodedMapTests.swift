import Foundation
import GraphQL
import Testing

@testable import RecordService

@Suite("Decoding GraphQL request JSON into Map")
struct DecodedMapTests {
    static let documents = [
        #"{"query":"{ Lists { name } }","operationName":null,"variables":{"n":3,"x":1.5,"ok":true,"none":null}}"#,
        #"{"variables":{"records":[{"recordName":"a","fields":{"z":"1","a":[1,2,{"b":false}]}},{"recordName":"b"}],"empty":{},"list":[]}}"#,
        #"["text", -0.25, 1e3, [[]], {"é":"ü\n"}]"#,
        #""just a string""#,
    ]

    @Test(arguments: documents)
    func decodesWhatGraphQLSwiftsOwnDecoderDecodes(json: String) throws {
        let expected = try JSONDecoder().decode(Map.self, from: Data(json.utf8))
        let decoded = try JSONDecoder().decode(DecodedMap.self, from: Data(json.utf8)).map
        #expect(decoded == expected)
        #expect(decoded.description == expected.description)
    }

    @Test func keepsTheMembersOfObjectsInTheOrderOfTheText() throws {
        let decoded = try JSONDecoder().decode(DecodedMap.self, from: Data(#"{"z":1,"a":{"y":2,"b":3},"m":4}"#.utf8)).map
        #expect(decoded.dictionary.map { Array($0.keys) } == ["z", "a", "m"])
        #expect(decoded.dictionary?["a"]?.dictionary.map { Array($0.keys) } == ["y", "b"])
    }

    @Test func refusesTextThatIsNotJSON() {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(DecodedMap.self, from: Data(#"{"query": }"#.utf8)) }
    }
}
