import Foundation
import TestSupport
import Testing

/// The service rows keep working: `shop-bench service --quick --json` (shop serve alone, no
/// peers; about 15 s in the debug build) starts shop serve on 127.0.0.1, checks its answers,
/// loads it with wrk and reports a finite, positive figure for every row, and a verdict for
/// each row whose budget needs no peer. Timings are not asserted.
@Suite struct ServiceRowsTests {
    /// Whether the `shop` built beside the tests has `shop serve` (until the service lands in
    /// this branch it has not; from then on the test always runs).
    static var shopServes: Bool {
        guard let shop = BuiltProducts.executable("shop") else { return false }
        return (try? ChildProcess.run(shop, ["serve", "--help"]))?.output.contains("--port") == true
    }

    /// Whether the service's OpenAPI document (which describes every endpoint it serves)
    /// has the CloudKit endpoints the rows load: until they land the test is skipped.
    static var servesCloudKitRecords: Bool {
        let openAPI = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/RecordService/Resources/openapi.yaml")
        let text = (try? String(contentsOf: openAPI, encoding: .utf8)) ?? ""
        return text.contains("records/query") && text.contains("records/modify")
    }

    @Test(
        .enabled(if: shopServes, "the shop built here has no serve command yet"),
        .enabled(if: servesCloudKitRecords, "shop serve does not serve records/query and records/modify yet"))
    func everyServiceRowRunsAgainstShopServeAloneAndReportsFigures() async throws {
        // 4-second loads: in the debug build one createManyItems of 500 records takes 1.5-2.7 s,
        // so a 1-second load of that row could end before any request completes.
        let report: ServiceReport = try await BenchmarkBinary.run(["service", "--quick", "--json", "--seconds", "4"], timeout: 240)
        #expect(report.machine.hasPrefix("machine: "))
        #expect(report.verdictsAreIndicative)
        let workloads = report.results.map(\.workload)
        #expect(report.results.count == 13, "rows: \(workloads)")
        for row in report.results {
            let label = Comment(rawValue: row.workload)
            #expect(row.shop.value.isFinite && row.shop.value > 0, label)
            // Without peers only their columns are empty.
            #expect(row.pocketBase == nil && row.datasette == nil, label)
            switch row.budget.kind {
            case "timesPocketBase":
                #expect(row.verdict == "—" && row.ratio == nil, label)
            case "timesEngine":
                let engine = try #require(row.engine, label)
                #expect(engine.value.isFinite && engine.value > 0, label)
                #expect(["PASS", "FAIL"].contains(row.verdict) && row.ratio != nil, label)
            default:
                #expect(["PASS", "FAIL"].contains(row.verdict), label)
            }
            if row.unit == "requests/s" {
                let p50 = try #require(row.shop.p50, label)
                let p99 = try #require(row.shop.p99, label)
                #expect(p50 > 0 && p99 >= p50, label)
            }
        }
        #expect(workloads.first?.contains("POST /graphql, 16 connections") == true)
        #expect(workloads.contains { $0.hasPrefix("records/modify with 200 creates") })
        #expect(workloads.contains { $0.contains("500 aliased createItems") })
        #expect(workloads.contains { $0.contains("createManyItems") })
        #expect(workloads.contains { $0.hasPrefix("records/changes paged out") })
        let live = try #require(report.results.first { $0.workload.hasPrefix("commit to subscriber") }, "the commit-to-subscriber row")
        let (p50, p99) = (try #require(live.shop.p50), try #require(live.shop.p99))
        #expect(p50 > 0 && p99 >= p50 && live.shop.value == p99)
        #expect(workloads.contains { $0.hasPrefix("start to first answered request") })
    }
}

/// What `shop-bench service --json` prints.
struct ServiceReport: Decodable {
    struct Figure: Decodable {
        var value: Double
        var p50: Double?
        var p99: Double?
    }

    /// The budget's case name (its associated value is not needed here).
    struct Budget: Decodable {
        var kind: String

        init(from decoder: any Decoder) throws {
            struct AnyKey: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            kind = try decoder.container(keyedBy: AnyKey.self).allKeys.first?.stringValue ?? ""
        }
    }

    struct Row: Decodable {
        var workload: String
        var unit: String
        var shop: Figure
        var pocketBase: Figure?
        var datasette: Figure?
        var engine: Figure?
        var budget: Budget
        var ratio: Double?
        var budgetText: String
        var verdict: String
    }

    var machine: String
    var verdictsAreIndicative: Bool
    var results: [Row]
}
