import Foundation
import GraphQL
import Testing

import enum RecordQL.JSONSyntaxError

@testable import RecordService

@Suite("Parsing request JSON, and into Map")
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
        let decoded = try JSONValue(parsing: json).map
        #expect(try Self.sortedText(decoded) == Self.sortedText(expected))
    }

    @Test func decodesIntegersWithAllTheirBitsWhereMapsOwnDecoderRoundsThem() throws {
        // 2^53 + 1: a double holds 2^53.
        let json = Data(#"{"n":9007199254740993,"x":1.5}"#.utf8)
        let decoded = try JSONValue(parsing: json).map
        guard case .number(let number)? = decoded.dictionary?["n"], case .number(let fraction)? = decoded.dictionary?["x"] else {
            Issue.record("n or x is not a number: \(decoded)")
            return
        }
        #expect(number.storageType == .int)
        #expect(number.int64Value == 9_007_199_254_740_993)
        #expect(fraction.storageType == .double && fraction.doubleValue == 1.5)
        let mapsOwn = try JSONDecoder().decode(Map.self, from: json)
        #expect(mapsOwn.dictionary?["n"]?.int != 9_007_199_254_740_993)
    }

    @Test(arguments: [
        #"{"query": }"#, #"{"n": 01}"#, #"{"n": +1}"#, #"{"n": .5}"#, #"{"n": 1.}"#, #"["a\qb"]"#, "[\"tab\there\"]",
        #"["\ud800"]"#, #"["\udc00\ud800"]"#, #"{"a": 1} x"#, "",
    ])
    func refusesTextThatIsNotJSON(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
    }

    @Test func refusesBytesThatAreNotUTF8() {
        #expect(throws: JSONSyntaxError.notUTF8) { try JSONValue(parsing: Data([0x22, 0xFF, 0x22])) }
    }

    @Test(arguments: [
        ("1", JSONValue.integer(1)), ("1.0", .integer(1)), ("1e2", .integer(100)), ("-0", .integer(0)), ("1.5", .double(1.5)),
        ("9223372036854775807", .integer(.max)), ("9223372036854775808", .double(0x1p63)), ("-9223372036854775808", .integer(.min)),
    ])
    func typesNumbersAsFoundationsDecoderDid(text: String, value: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test func readsEscapesAndSurrogatePairs() throws {
        #expect(try JSONValue(parsing: Data(#"["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"]"#.utf8)) == .array([.string("\"\\/\u{8}\u{C}\n\r\té😀")]))
    }
}
