import Foundation

/// The benchmark table (and its JSON form).
///
/// A `--quick` run (a small data set, few repetitions) says of each verdict that it is
/// indicative: it shows that a workload runs and roughly where it stands, not that the budget,
/// which is set for the full data set, is met.
enum Report {
    /// What a `--quick` run prints under its table.
    static let quickNote = "--quick: 20,000 items and 3 repetitions; verdicts are indicative only. Run Scripts/bench without --quick to measure against the budgets."

    static func table(_ results: [Result], machine: String, quick: Bool) -> String {
        let header = ["workload", "engine", "raw SQLite", "ratio", "budget", ""]
        let rows = results.map { result -> [String] in
            let engine = result.engine.map { "\(formatDuration($0.median)) ±\(Int(($0.spread * 100).rounded()))%" }
                ?? result.absolute.map { String(format: "%.1f %@", $0, result.unit ?? "") } ?? "—"
            let raw = result.raw.map { "\(formatDuration($0.median)) ±\(Int(($0.spread * 100).rounded()))%" } ?? "—"
            let ratio = result.ratio.map { String(format: "%.2fx", $0) } ?? "—"
            return [result.workload, engine, raw, ratio, result.budgetText, (result.passes ? "PASS" : "FAIL") + (quick ? " (indicative)" : "")]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        let separator = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        let note = quick ? ["", quickNote] : []
        return ([machine, "", line(header), separator] + rows.map(line) + note).joined(separator: "\n")
    }

    static func json(_ results: [Result], machine: String, quick: Bool) throws -> String {
        struct Document: Encodable {
            var machine: String
            /// Whether the verdicts only indicate (a `--quick` run).
            var verdictsAreIndicative: Bool
            var results: [Result]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(Document(machine: machine, verdictsAreIndicative: quick, results: results)), as: UTF8.self)
    }

    /// Cores, memory and SQLite version of this machine.
    static func machine(sqliteVersion: String) -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        #if DEBUG
        let build = "DEBUG build (figures not meaningful)"
        #else
        let build = "release build"
        #endif
        return String(format: "machine: %d cores, %.0f GiB memory, SQLite %@, %@", cores, memory, sqliteVersion, build)
    }
}
