import ArgumentParser
import Testing

@testable import RecordService

@Suite("shop serve's duration options")
struct DurationOptionTests {
    @Test(arguments: [("90s", 90), ("30m", 1800), ("24h", 86400), ("7d", 604_800), ("0s", 0)])
    func aNumberAndAUnitIsADuration(text: String, seconds: Int64) throws {
        let command = try ServeCommand.parse(["--transaction-retention", text])
        #expect(command.transactionRetention.duration == .seconds(seconds))
    }

    @Test func theDefaultsAreTheConfigurationsWrittenInTheirLargestUnit() throws {
        let command = try ServeCommand.parse([])
        #expect(command.transactionRetention.duration == ServiceConfiguration.defaultTransactionRetention)
        #expect(command.changeRetention.duration == ServiceConfiguration.defaultChangeRetention)
        #expect(command.readTimeout.duration == ServiceConfiguration.defaultReadTimeout)
        #expect(["\(command.transactionRetention)", "\(command.changeRetention)", "\(command.readTimeout)"] == ["1d", "30d", "30s"])
    }

    @Test func aReadTimeoutOfZeroIsRefusedSayingWhatWasGiven() {
        #expect {
            _ = try ServeCommand.parse(["--read-timeout", "0s"])
        } throws: { error in
            ServeCommand.fullMessage(for: error).contains("--read-timeout must be above 0 (e.g. 30s), not '0s'")
        }
    }

    @Test(arguments: ["5", "5 minutes", "m", "-3s", "1.5h", "5w", ""])
    func anotherFormIsRefusedNamingTheOptionAndItsForm(text: String) {
        #expect {
            _ = try ServeCommand.parse(["--change-retention", text])
        } throws: { error in
            let message = ServeCommand.fullMessage(for: error)
            return message.contains("--change-retention") && message.contains("90s, 30m, 24h, 30d")
        }
    }

    @Test func aReadTimeoutOfZeroIsRefused() {
        #expect {
            _ = try ServeCommand.parse(["--read-timeout", "0s"])
        } throws: { error in
            ServeCommand.message(for: error).contains("--read-timeout must be above 0")
        }
    }
}
