import Foundation

/// The benchmark tables (and their JSON form): the engine rows and the service rows.
///
/// A `--quick` run (a small data set, few repetitions) says of each verdict that it is
/// indicative: it shows that a workload runs and roughly where it stands, not that the budget,
/// which is set for the full data set, is met.
enum Report {
    /// What a `--quick` run prints under its table.
    static let quickNote =
        "--quick: 20,000 items and 3 repetitions; verdicts are indicative only. Run Scripts/bench without --quick to measure against the budgets."
    static let quickServiceNote =
        "--quick: 10,000 items and short loads; verdicts are indicative only. Run Scripts/bench service without --quick to measure against the budgets."

    static func table(_ results: [Result], machine: String, quick: Bool) -> String {
        let header = ["workload", "engine", "raw SQLite", "ratio", "budget", ""]
        let rows = results.map { result -> [String] in
            let engine =
                result.engine.map { "\(formatDuration($0.median)) ±\(Int(($0.spread * 100).rounded()))%" }
                ?? result.absolute.map { String(format: "%.1f %@", $0, result.unit ?? "") } ?? "—"
            let raw = result.raw.map { "\(formatDuration($0.median)) ±\(Int(($0.spread * 100).rounded()))%" } ?? "—"
            let ratio = result.ratio.map { String(format: "%.2fx", $0) } ?? "—"
            return [result.workload, engine, raw, ratio, result.budgetText, (result.passes ? "PASS" : "FAIL") + (quick ? " (indicative)" : "")]
        }
        return markdown(header: header, rows: rows, machine: machine, note: quick ? quickNote : nil)
    }

    /// The service rows: shop serve beside the peers (and the engine in process for writes).
    static func serviceTable(_ results: [ServiceResult], machine: String, quick: Bool) -> String {
        let header = ["workload", "shop serve", "PocketBase", "datasette-graphql", "engine in process", "ratio", "budget", ""]
        let rows = results.map { result -> [String] in
            let figures = [result.shop, result.pocketBase, result.datasette, result.engine].map { $0.map(result.format) ?? "—" }
            let verdict = result.verdict + (quick && result.passes != nil ? " (indicative)" : "")
            return [result.workload] + figures + [result.ratio.map { String(format: "%.2fx", $0) } ?? "—", result.budgetText, verdict]
        }
        return markdown(header: header, rows: rows, machine: machine, note: quick ? quickServiceNote : nil)
    }

    /// A Markdown table with padded columns, under the machine's description.
    private static func markdown(header: [String], rows: [[String]], machine: String, note: String?) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        let separator = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([machine, "", line(header), separator] + rows.map(line) + (note.map { ["", $0] } ?? [])).joined(separator: "\n")
    }

    static func json<Row: Encodable>(_ results: [Row], machine: String, quick: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(ReportDocument(machine: machine, verdictsAreIndicative: quick, results: results)), as: UTF8.self)
    }

    /// The 1, 5 and 15-minute load averages, as /proc/loadavg has them.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
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

/// What `--json` prints: the machine, whether the verdicts only indicate (a `--quick` run), the rows.
private struct ReportDocument<Row: Encodable>: Encodable {
    var machine: String
    var verdictsAreIndicative: Bool
    var results: [Row]
}
