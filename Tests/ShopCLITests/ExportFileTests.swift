import Foundation
import RecordKit
import Testing

@testable import ShopCLI

/// Where an export writes: a failed export leaves the old file as it was, a link is followed, a
/// private file stays private, and what is not a regular file is written to, not replaced.
@Suite struct ExportFileTests {
    @Test func anAbandonedExportLeavesTheOldFileAsItWasAndNothingBesideIt() throws {
        let sandbox = Sandbox()
        let path = try sandbox.file("backup.csv", "name\nPrecious\n")
        let output = try ExportFile(path: path)
        try output.write("recordName,name\n")
        output.abandon()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "name\nPrecious\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.contains("shop-export") }.isEmpty)
    }

    @Test func exportingThroughALinkReplacesTheFileItPointsToAndKeepsItsPermissions() async throws {
        let sandbox = Sandbox()
        let kept = try sandbox.file("kept.csv", "old\n")
        chmod(kept, 0o600)
        let link = sandbox.folder.appendingPathComponent("link.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "kept.csv")
        let run = await shop(["--db", sandbox.database, "-e", "list add A", "-e", "export Lists \(link)"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "kept.csv")
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasPrefix("recordName,name\n"))
        let attributes = try FileManager.default.attributesOfItem(atPath: kept)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aPipeIsWrittenIntoNotReplaced() async throws {
        let sandbox = Sandbox()
        let pipe = sandbox.folder.appendingPathComponent("pipe.csv").path
        #expect(mkfifo(pipe, 0o644) == 0)
        // A reader on a thread of its own, as `cat pipe.csv` would be; the export's open waits for it.
        let received = ReceivedText()
        let reader = Thread { received.set(FileHandle(forReadingAtPath: pipe)?.readDataToEndOfFile()) }
        reader.start()
        let run = await shop(["--db", sandbox.database, "-e", "list add A", "-e", "export Lists \(pipe)"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(received.wait().hasPrefix("recordName,name\n"))
        var status = stat()
        #expect(stat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func exportingToStandardOutputRedirectedToAFileKeepsWhatIsThere() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let out = try sandbox.file("out.txt", "previous line\n")
        let script = "\"$0\" --db \"$1\" -e 'list add A' -e 'export Lists /dev/stdout' -e 'count Lists' >> \"$2\""
        let run = try ShopBinary.run("/bin/sh", ["-c", script, binary, sandbox.database, out])
        #expect(run.status == 0, "\(run.errors)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("previous line\nadded list A\nrecordName,name\n") && text.hasSuffix(",A\n1\n"), "\(text)")
    }

    @Test func aSchemaExportFollowsALinkToo() async throws {
        let sandbox = Sandbox()
        let kept = try sandbox.file("schema.ckdb", "")
        let link = sandbox.folder.appendingPathComponent("current.ckdb").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: kept)
        let run = await shop(["--db", sandbox.database, "-e", "schema export \(link)"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == kept)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasPrefix("DEFINE SCHEMA"))
    }
}

/// What a reader thread read, handed to the test once it is done.
private final class ReceivedText: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var text = ""

    func set(_ data: Data?) {
        text = String(decoding: data ?? Data(), as: UTF8.self)
        done.signal()
    }

    func wait() -> String {
        _ = done.wait(timeout: .now() + 30)
        return text
    }
}
