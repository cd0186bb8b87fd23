import Testing

@testable import RecordService

@Suite("Reading a bearer credential")
struct CredentialTests {
    @Test func aPlainBearerHeaderIsReadWithoutTheGeneralRules() {
        #expect(Credential.plainBearerToken("Bearer abc123") == "abc123")
        #expect(Credential.plainBearerToken("Bearer a b") == "a b")
    }

    @Test func everyOtherSpellingIsLeftToTheGeneralRules() {
        #expect(Credential.plainBearerToken("bearer abc") == nil)
        #expect(Credential.plainBearerToken("Bearer  abc") == nil)
        #expect(Credential.plainBearerToken("Bearer abc\t") == nil)
        #expect(Credential.plainBearerToken("Bearer ") == nil)
        #expect(Credential.plainBearerToken("abc") == nil)
    }
}
