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
        let database = try RecordDatabase(path: self.database)
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

/// What a run of `shop` printed and returned.
struct ShopRun: Sendable {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs `shop` in this process, with its output captured.
func shop(_ arguments: [String], environment: [String: String] = [:]) async -> ShopRun {
    let (console, captured) = Console.capturing()
    let status = await Shop.main(arguments: arguments, environment: environment, console: console)
    return ShopRun(status: status, output: captured.output, errors: captured.errors)
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

    /// Runs `executable` with `arguments`, `input` on standard input (a pipe), and waits at most
    /// `timeout` seconds; `during` runs once the process has started and its input is written.
    static func run(
        _ executable: String, _ arguments: [String], input: String = "", environment: [String: String] = [:], timeout: TimeInterval = 60,
        during: (Process) throws -> Void = { _ in }
    ) throws -> ShopRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment.removeValue(forKey: "SHOP_DB")
        processEnvironment.merge(environment) { $1 }
        process.environment = processEnvironment
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("shop-out-\(UUID().uuidString)")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("shop-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        try during(process)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("\(executable) \(arguments) did not finish within \(timeout) s")
        }
        return ShopRun(
            status: process.terminationStatus,
            output: try String(contentsOf: outputFile, encoding: .utf8),
            errors: try String(contentsOf: errorFile, encoding: .utf8)
        )
    }

    /// Runs the built `shop`; records an issue and returns `nil` when it is not built.
    static func shop(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> ShopRun? {
        guard let path else {
            Issue.record("the shop executable is not built next to the tests; run swift build --build-tests first")
            return nil
        }
        return try run(path, arguments, input: input, environment: environment)
    }
}
