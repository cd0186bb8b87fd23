import Foundation
import TestSupport
import Testing

/// The benchmark keeps working: `shop-bench --quick --json` (the debug build, about 20 s) runs
/// every workload, each of which checks it did its work, and reports finite, positive figures
/// and a verdict for each. Timings are not asserted: budgets are for Scripts/bench, in release.
@Suite struct BenchmarkRunTests {
    /// The rows `shop-bench` prints, the seven budgeted ones of docs/bench.md and the others.
    static let workloadCount = 17

    @Test func everyWorkloadRunsAndReportsFiguresAndAVerdict() async throws {
        let report = try await BenchmarkBinary.runQuick()
        #expect(report.machine.hasPrefix("machine: "))
        #expect(report.verdictsAreIndicative, "a --quick run says its verdicts only indicate")
        #expect(report.results.count == Self.workloadCount, "rows: \(report.results.map(\.workload))")
        for result in report.results {
            let label = Comment(rawValue: result.workload)
            #expect(!result.workload.isEmpty)
            #expect(["PASS", "FAIL"].contains(result.verdict), label)
            #expect(!result.budgetText.isEmpty, label)
            if let absolute = result.absolute {
                #expect(absolute.isFinite && absolute > 0, label)
                #expect(result.engine == nil, label)
            } else {
                let engine = try #require(result.engine, label)
                #expect(engine.isValid, label)
                if let raw = result.raw {
                    #expect(raw.isValid, label)
                    let ratio = try #require(result.ratio, label)
                    #expect(ratio.isFinite && ratio > 0, label)
                }
            }
        }
        // The seven budgeted rows come first, in docs/bench.md's order.
        let first = report.results.prefix(7).map(\.workload)
        #expect(first.count == 7)
        #expect(first.first?.hasPrefix("save ") == true)
        #expect(first.contains { $0.contains("never seen before") })
        #expect(first.contains { $0.hasPrefix("shop --db BIG -e 'items L7'") })
    }
}

/// What `shop-bench --json` prints.
struct BenchmarkReport: Decodable {
    struct Timing: Decodable {
        var samples: [Double]
        var median: Double
        var spread: Double

        var isValid: Bool {
            !samples.isEmpty && samples.allSatisfy { $0.isFinite && $0 > 0 } && median.isFinite && median > 0 && spread.isFinite && spread >= 0
        }
    }

    struct Row: Decodable {
        var workload: String
        var engine: Timing?
        var raw: Timing?
        var absolute: Double?
        var ratio: Double?
        var budgetText: String
        var verdict: String
    }

    var machine: String
    var verdictsAreIndicative: Bool
    var results: [Row]
}

/// The `shop-bench` executable built beside the tests (with `shop` next to it).
enum BenchmarkBinary {
    static var path: String? { BuiltProducts.executable("shop-bench") }

    /// Runs `shop-bench --quick --json` and decodes its report.
    static func runQuick() async throws -> BenchmarkReport {
        try await run(["--quick", "--json"])
    }

    /// Runs `shop-bench` with `arguments` and a new `--folder`, and decodes the report it prints;
    /// its progress (standard error) is shown when it fails.
    static func run<Report: Decodable>(_ arguments: [String], timeout: TimeInterval = 300) async throws -> Report {
        guard let path else {
            throw BenchmarkRunError("shop-bench is not built next to the tests; run swift build --build-tests first")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await ChildProcess.runOffThePool(path, arguments + ["--folder", folder.appendingPathComponent("data").path], timeout: timeout)
        guard run.status == 0 else {
            throw BenchmarkRunError("shop-bench \(arguments.joined(separator: " ")) failed (status \(run.status)):\n\(run.errors)")
        }
        return try JSONDecoder().decode(Report.self, from: Data(run.output.utf8))
    }
}

struct BenchmarkRunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
