import RecordQL
import Testing

@Suite struct JSONParserTests {
    @Test func keepsMembersInTheirOrderAndNumbersAsTheirText() {
        #expect(
            JSONValue(parsing: #" {"b": [1.50, -0, 2e-3], "a": {"c": null, "d": true}} "#)
                == .object([
                    .init(key: "b", value: .array([.number("1.50"), .number("-0"), .number("2e-3")])),
                    .init(key: "a", value: .object([.init(key: "c", value: .null), .init(key: "d", value: .bool(true))])),
                ]))
    }

    @Test(arguments: [
        "01", "+1", ".5", "1.", "1e", "-", "[1,]", #"{"a":1,}"#, #"["\x"]"#, "[\"line\nbreak\"]", #"["\ud800x"]"#, #"["\udc00"]"#, "nul", "[] []",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(JSONValue(parsing: text) == nil)
    }

    @Test func readsEscapesAndJoinsSurrogatePairs() {
        #expect(JSONValue(parsing: #""a\"\\\/\u00e9\ud83d\ude00b""#) == .string("a\"\\/é😀b"))
    }

    @Test func refusesNestingPastItsDepthSayingSo() {
        #expect(throws: JSONSyntaxError.tooDeep(offset: 516)) {
            try JSONValue.parse(#"{"a":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}")
        }
        #expect("\(JSONSyntaxError.tooDeep(offset: 516))" == "arrays and objects nested deeper than 512 levels at byte 516")
        #expect(JSONValue(parsing: String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) != nil)
    }

    @Test(arguments: [(#"{"query": }"#, 10), ("[1, 2", 5), (#"{"a": 1} x"#, 9), ("01", 1)])
    func namesTheByteWhereTheTextStopsBeingJSON(text: String, offset: Int) {
        #expect(throws: JSONSyntaxError.unexpected(offset: offset)) { try JSONValue.parse(text) }
    }
}
