import Foundation
import RecordKit
import TestSupport
import Testing

@testable import ShopCLI

/// A temporary folder with a database path, removed when released.
final class Sandbox {
    let folder: URL
    var database: String { folder.appendingPathComponent("shop.sqlite").path }
    /// A home folder for the history file.
    var home: String { folder.appendingPathComponent("home").path }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shopcli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: folder.appendingPathComponent("home").path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `text` to a file in the sandbox and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The lists, their items (name and number, by name) and the schema, as text: what two runs
    /// must agree on (recordNames are random, so they are left out).
    func contents() throws -> String {
        let database = try RecordDatabase(path: self.database, bootstrap: .shopping)
        var lines: [String] = []
        for list in try database.records(matching: Query("Lists", sort: [SortDescriptor("name")])) {
            lines.append("list \(list["name"]?.description ?? "?")")
            let items = Query("Items", predicate: PredicateField("list") == .string(list.recordName), sort: [SortDescriptor("name")])
            for item in try database.records(matching: items) {
                lines.append("  item \(item["name"]?.description ?? "?") number=\(item["number"]?.description ?? "unset")")
            }
        }
        return lines.joined(separator: "\n") + "\n" + (try database.schema.ckdb)
    }
}

/// Runs `shop` in this process, with its output captured.
func shop(_ arguments: [String], environment: [String: String] = [:]) async -> ProcessRun {
    let (console, captured) = Console.capturing()
    let status = await Shop.main(arguments: arguments, environment: environment, console: console)
    return ProcessRun(status: status, output: captured.output, errors: captured.errors)
}

/// The built `shop` executable and the package's files.
enum ShopBinary {
    static var packageRoot: URL { BuiltProducts.packageRoot }

    /// The `shop` executable built next to the test bundle.
    static var path: String? { BuiltProducts.executable("shop") }

    /// A file of the package, e.g. `Scripts/examples/groceries.shop`.
    static func file(_ relativePath: String) -> String {
        packageRoot.appendingPathComponent(relativePath).path
    }

    /// Runs `executable` with `arguments`, `input` on standard input (a pipe) and `SHOP_DB`
    /// unset, and waits at most `timeout` seconds; `during` runs once the process has started
    /// and its input is written.
    static func run(
        _ executable: String, _ arguments: [String], input: String = "", environment: [String: String] = [:], timeout: TimeInterval = 60,
        during: (ChildProcess) throws -> Void = { _ in }
    ) throws -> ProcessRun {
        let child = try ChildProcess(executable, arguments, environment: environment, removing: ["SHOP_DB"], input: .text(input))
        try during(child)
        return try child.finish(timeout: timeout)
    }

    /// Runs the built `shop`; records an issue and returns `nil` when it is not built.
    static func shop(
        _ arguments: [String], input: String = "", environment: [String: String] = [:], timeout: TimeInterval = 60
    ) throws -> ProcessRun? {
        guard let path = built() else { return nil }
        return try run(path, arguments, input: input, environment: environment, timeout: timeout)
    }

    /// Starts the built `shop` in the background (standard input empty, `SHOP_DB` unset): a
    /// writer or reader of a database shared with other processes, or one to kill in the middle
    /// of its work. `launcher`, when given, is a command that runs the rest (e.g.
    /// `bash -c '…' shop …`). `nil` (with an issue recorded) when `shop` is not built.
    static func start(_ arguments: [String], launcher: [String] = []) throws -> ChildProcess? {
        guard let path = built() else { return nil }
        let command = launcher + [path] + arguments
        return try ChildProcess(command[0], Array(command.dropFirst()), removing: ["SHOP_DB"])
    }

    /// What `executable` wrote to a pseudo-terminal of `rows` lines (standard input from
    /// /dev/null), as a person at a terminal would see it, and its exit status.
    static func onTerminal(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], rows: UInt16 = 24, timeout: TimeInterval = 60
    ) throws -> (status: Int32, text: String) {
        let run = try ChildProcess.run(
            executable, arguments, environment: ["TERM": "xterm"].merging(environment) { $1 }, removing: ["SHOP_DB", "NO_COLOR", "PAGER"],
            output: .terminal(rows: rows, columns: 100), timeout: timeout)
        return (run.status, run.output.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    /// The built `shop`, or `nil` with an issue recorded.
    private static func built() -> String? {
        guard let path else {
            Issue.record("the shop executable is not built next to the tests; run swift build --build-tests first")
            return nil
        }
        return path
    }
}
