import NIOCore
import RecordKit
import Testing

@testable import RecordService

@Suite struct ReadTimeoutTests {
    private let timeout = ReadTimeout(.seconds(30))

    @Test func aBodyGetsTheTimeoutAndASecondForEach64KiBItDeclares() {
        #expect(timeout.bodyAllowance(length: nil) == .seconds(30))
        #expect(timeout.bodyAllowance(length: 0) == .seconds(30))
        #expect(timeout.bodyAllowance(length: 64 << 10) == .seconds(31))
        #expect(timeout.bodyAllowance(length: Limits.maximumAssetBytes) == .seconds(30 + 1024))
    }

    @Test func aDeclaredLengthPastTheLargestBodyAnyRouteTakesEarnsNoMoreTime() {
        #expect(timeout.bodyAllowance(length: Int.max) == timeout.bodyAllowance(length: Limits.maximumAssetBytes))
        #expect(timeout.bodyAllowance(length: -5) == .seconds(30))
    }

    @Test func theErrorSaysWhetherTheBodyStalledOrRanOutOfItsWholeAllowance() {
        #expect(timeout.bodyError(length: 100, stalled: false).reason.hasPrefix("the request's body did not arrive within 30 s;"))
        #expect(
            timeout.bodyError(length: 64 << 20, stalled: false).reason.hasPrefix(
                "the request's body did not arrive within 1054 s (30 s, and 1 s for each 64 KiB of its length);"))
        #expect(timeout.bodyError(length: 64 << 20, stalled: true).reason.hasPrefix("the request's body stopped arriving: nothing of it came for 30 s;"))
        #expect(timeout.headersError.reason.hasPrefix("the request's headers did not arrive within 30 s;"))
    }
}
