import Foundation
import RecordKit
import ShopCLI

extension Bench {
    /// Peak resident memory of a separate process iterating every Item through the engine API
    /// (`forEachRecord`), read from the OS (`VmHWM` in /proc/self/status).
    func streamingMemory() throws -> Result {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["stream-all-items", enginePath]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0, let megabytes = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("the streaming child failed (status \(child.terminationStatus))")
        }
        return Result(
            workload: "memory while the engine API iterates all \(sizes.items.formatted()) Items",
            absolute: megabytes, unit: "MB", budget: .below(64)
        )
    }
}

/// The child side: iterate everything, then report peak resident size in MB.
enum StreamAllItems {
    static func run(path: String) throws {
        let db = try RecordDatabase(path: path, bootstrap: try ShoppingLists.schema)
        var count = 0
        try db.forEachRecord(matching: Query("Items", sort: [SortDescriptor("name")])) { _ in count += 1 }
        print(String(format: "%.1f", peakResidentMegabytes()))
    }

    static func peakResidentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return .nan }
        return kilobytes / 1024
    }
}
