import Foundation
import Testing

@testable import RecordService

@Suite struct JSONBufferTests {
    @Test func stringsAreQuotedAndEscapedOnlyWhereJSONRequires() {
        var json = JSONBuffer()
        json.string("Milk")
        json.raw(",")
        json.string("é 🛒 tab\t \"q\" \\ \u{1}")
        json.raw(",")
        json.string("")
        #expect(json.text == #""Milk","é 🛒 tab\t \"q\" \\ \u0001","""#)
    }

    @Test func numbersAreWrittenAsTheyReadBack() throws {
        var json = JSONBuffer()
        json.raw("[")
        for number in [Int64.min, 0, Int64.max] {
            json.number(number)
            json.raw(",")
        }
        json.number(0.1)
        json.raw(",")
        json.number(-1e-300)
        json.raw(",")
        json.bool(false)
        json.raw("]")
        #expect(json.text == "[-9223372036854775808,0,9223372036854775807,0.1,-1e-300,false]")
        #expect(try JSONValue(parsing: json.text) == .array([.integer(.min), .integer(0), .integer(.max), .double(0.1), .double(-1e-300), .bool(false)]))
    }

    @Test func textWrittenAlreadyIsCopiedAsItIs() {
        var json = JSONBuffer()
        json.raw("{\"records\":[")
        json.raw(JSONValue.object(["b": .integer(2), "a": .null]).buffer.bytes)
        json.raw("]}")
        #expect(json.text == #"{"records":[{"a":null,"b":2}]}"#)
        #expect(String(buffer: json.byteBuffer) == json.text)
    }
}
