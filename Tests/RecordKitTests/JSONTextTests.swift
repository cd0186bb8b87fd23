import Foundation
import RecordKit
import Testing

@Suite("JSON string literals")
struct JSONTextTests {
    @Test func everyASCIICharacterRoundTripsAndOnlyWhatJSONRequiresIsEscaped() throws {
        let text = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
        let literal = JSONText.string(text)
        let parsed = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
        #expect(parsed == text)
        let controls = (0..<0x20).map { code in
            switch code {
            case 0x09: #"\t"#
            case 0x0A: #"\n"#
            case 0x0D: #"\r"#
            default: #"\u00"# + String(format: "%02x", code)
            }
        }
        let printable = String(decoding: (0x20..<0x80).map { UInt8($0) }, as: UTF8.self)
            .replacingOccurrences(of: "\\", with: #"\\"#).replacingOccurrences(of: "\"", with: #"\""#)
        #expect(literal == "\"" + controls.joined() + printable + "\"")
    }

    @Test func charactersOutsideASCIIAreKeptAsTheyAre() throws {
        let text = "\"Crème brûlée\"\n🛒 日本\\"
        let literal = JSONText.string(text)
        #expect(literal == #""\"Crème brûlée\"\n🛒 日本\\""#)
        #expect(try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String == text)
        #expect(JSONText.string("plain 🛒") == "\"plain 🛒\"")
    }
}
