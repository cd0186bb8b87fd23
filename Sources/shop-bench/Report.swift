import Foundation

/// The benchmark table (and its JSON form).
enum Report {
    static func table(_ results: [Result], machine: String) -> String {
        let header = ["workload", "engine", "raw SQLite", "ratio", "budget", ""]
        let rows = results.map { result -> [String] in
            let engine = result.engine.map { "\(formatDuration($0.median)) ±\(Int(($0.spread * 100).rounded()))%" }
                ?? result.absolute.map { String(format: "%.1f %@", $0, result.unit ?? "") } ?? "—"
            let raw = result.raw.map { "\(formatDuration($0.median)) ±\(Int(($0.spread * 100).rounded()))%" } ?? "—"
            let ratio = result.ratio.map { String(format: "%.2fx", $0) } ?? "—"
            return [result.workload, engine, raw, ratio, result.budgetText, result.passes ? "PASS" : "FAIL"]
        }
        return markdown(header: header, rows: rows, machine: machine)
    }

    /// The service rows: shop serve beside the peers (and the engine in process for writes).
    static func serviceTable(_ results: [ServiceResult], machine: String) -> String {
        let header = ["workload", "shop serve", "PocketBase", "datasette-graphql", "engine in process", "ratio", "budget", ""]
        let rows = results.map { result -> [String] in
            let figures = [result.shop, result.pocketBase, result.datasette, result.engine].map { $0.map(result.format) ?? "—" }
            return [result.workload] + figures + [result.ratio.map { String(format: "%.2fx", $0) } ?? "—", result.budgetText, result.verdict]
        }
        return markdown(header: header, rows: rows, machine: machine)
    }

    /// A Markdown table with padded columns, under the machine's description.
    private static func markdown(header: [String], rows: [[String]], machine: String) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        let separator = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([machine, "", line(header), separator] + rows.map(line)).joined(separator: "\n")
    }

    static func json<Row: Encodable>(_ results: [Row], machine: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(ReportDocument(machine: machine, results: results)), as: UTF8.self)
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

/// What `--json` prints: the machine and the rows.
private struct ReportDocument<Row: Encodable>: Encodable {
    var machine: String
    var results: [Row]
}
