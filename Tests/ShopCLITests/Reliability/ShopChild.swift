import Foundation
import Testing

/// The built `shop` running in the background, its output going to files: a writer or reader
/// of a database shared with other processes, or one to kill in the middle of its work.
final class ShopChild {
    private let process = Process()
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `shop arguments`; `nil` (with an issue recorded) when `shop` is not built.
    /// `launcher`, when given, is a command that runs the rest (e.g. `bash -c '…' shop …`).
    init?(_ arguments: [String], launcher: [String] = []) throws {
        guard let shop = ShopBinary.path else {
            Issue.record("the shop executable is not built next to the tests; run swift build --build-tests first")
            return nil
        }
        let command = launcher + [shop] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SHOP_DB")
        process.environment = environment
        let folder = FileManager.default.temporaryDirectory
        outputFile = folder.appendingPathComponent("shop-child-out-\(UUID().uuidString)")
        errorFile = folder.appendingPathComponent("shop-child-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning { kill() }
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
    }

    var isRunning: Bool { process.isRunning }

    /// Sends SIGKILL (the process gets no chance to clean up) and waits for it to be gone.
    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the process to exit (at most `timeout` seconds, then kills it and records an
    /// issue) and returns what it printed and its status.
    func finish(timeout: TimeInterval = 120) throws -> ShopRun {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        if process.isRunning {
            kill()
            Issue.record("shop \(process.arguments ?? []) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return ShopRun(
            status: process.terminationStatus,
            output: try String(contentsOf: outputFile, encoding: .utf8),
            errors: try String(contentsOf: errorFile, encoding: .utf8)
        )
    }
}
