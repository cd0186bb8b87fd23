import RecordKit
import Testing

@testable import ShopCLI

/// When a command through `shop --server` that used remembered records runs again on fresh
/// look-ups: only when running it again can neither apply a write twice nor ignore a failure of
/// the connection or the user's Ctrl-C.
@Suite struct OptimisticUnitTests {
    private static func unit(assuming: Bool = true, _ change: (inout OptimisticUnit) -> Void = { _ in }) -> OptimisticUnit {
        var unit = OptimisticUnit(mayUseSeen: true)
        if assuming { unit.assumed = [Record("Lists", recordName: "L1")] }
        change(&unit)
        return unit
    }

    @Test func aRunThatUsedRememberedRecordsAndWhoseWriteWasRefusedRunsAgain() {
        #expect(Self.unit().mayRunAgain)
        #expect(Self.unit(assuming: false) { $0.assumedFreeName = true }.mayRunAgain)
    }

    @Test func aRunThatAssumedNothingOrWasAlreadyTheSecondDoesNot() {
        #expect(!Self.unit(assuming: false).mayRunAgain)
        var second = OptimisticUnit(mayUseSeen: false)
        second.assumed = [Record("Lists", recordName: "L1")]
        #expect(!second.mayRunAgain)
    }

    @Test func aRunWhoseWriteMayHaveBeenAppliedOrWhoseRequestGotNoAnswerDoesNot() {
        #expect(!Self.unit { $0.writeMayHaveApplied = true }.mayRunAgain)
        #expect(!Self.unit { $0.unanswered = true }.mayRunAgain)
    }
}
