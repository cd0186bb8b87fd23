import Testing

@testable import shop_bench

/// A `--quick` table labels its verdicts as indicative and says why; a full run's does not.
@Suite struct ReportTests {
    @Test func quickVerdictsAreLabelledIndicative() {
        let quick = Report.table([], machine: "machine: test", quick: true)
        #expect(quick.hasSuffix(Report.quickNote))
        #expect(quick.contains("indicative only"))
        #expect(!Report.table([], machine: "machine: test", quick: false).contains("indicative"))
    }
}
