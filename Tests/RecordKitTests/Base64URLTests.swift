import Foundation
import Testing

@testable import RecordKit

@Suite struct Base64URLTests {
    /// Tokens use the URL-safe alphabet without padding, and every length round-trips.
    @Test func bytesOfEveryLengthRoundTripInTheURLSafeAlphabetWithoutPadding() throws {
        for length in 0..<64 {
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) })
            let text = Base64URL.encode(data)
            #expect(!text.contains("+") && !text.contains("/") && !text.contains("="), "\(text)")
            #expect(Base64URL.decode(text) == data)
        }
        // 0xFB 0xFF 0xBF is "+/+/" in base64.
        #expect(Base64URL.encode(Data([0xFB, 0xFF, 0xBF])) == "-_-_")
    }

    /// A padded text decodes as well; a text outside the alphabet does not.
    @Test func paddedTextDecodesAndForeignCharactersDoNot() {
        #expect(Base64URL.decode("c2hvcA==") == Data("shop".utf8))
        #expect(Base64URL.decodeText("c2hvcA") == "shop")
        #expect(Base64URL.decode("c2h*cA") == nil)
        #expect(Base64URL.decode("c") == nil)
    }
}
