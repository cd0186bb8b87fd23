import Foundation
import TestSupport
import Testing

@testable import RecordKit
@testable import ShopCLI

/// Files the engine cannot or must not use, and a disk that fills up: each is a clear error
/// that names the file and says what to do, through the engine and through `shop` (exit 1,
/// `error: <code>: <message>`), and not one byte of the file is written.
@Suite("Resource failures", .serialized)
struct ResourceFailureTests {
    /// A file or folder that is wrong for a database, made in a fresh folder.
    struct Scenario: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var code: RecordKit.RecordError.Code
        /// Parts of the message besides the path.
        var says: [String]
        var needsWriteProtection = false
        /// Makes the situation in the folder and returns the database path to open.
        var prepare: @Sendable (URL) throws -> String
        /// Puts things back so that the folder can be removed.
        var cleanUp: @Sendable (URL) -> Void = { _ in }
    }

    static let scenarios: [Scenario] = [
        Scenario(testDescription: "a folder that does not exist", code: .invalidArguments, says: ["its folder does not exist", "pass another --db path"]) {
            folder in
            folder.appendingPathComponent("missing/shop.sqlite").path
        },
        Scenario(testDescription: "a folder in place of the file", code: .invalidArguments, says: ["is a folder, not a database file"]) { folder in
            let path = folder.appendingPathComponent("shop.sqlite").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return path
        },
        Scenario(testDescription: "a named pipe in place of the file", code: .invalidArguments, says: ["it is a named pipe (FIFO), not a database file"]) {
            folder in
            let path = folder.appendingPathComponent("shop.sqlite").path
            guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return path
        },
        Scenario(testDescription: "a file of random bytes", code: .invalidArguments, says: ["is not a shop database", "pass another --db path"]) { folder in
            var random = SplitMix64(state: 7)
            return try file(in: folder, Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &random) }))
        },
        Scenario(testDescription: "a text file", code: .invalidArguments, says: ["is not a shop database"]) { folder in
            try file(in: folder, Data(String(repeating: "milk, eggs, bread\n", count: 300).utf8))
        },
        Scenario(
            testDescription: "another program's SQLite database", code: .invalidArguments,
            says: ["SQLite database of another program", "people", "pass another --db path"]
        ) { folder in
            let path = folder.appendingPathComponent("shop.sqlite").path
            try SQLiteFile(path: path, creating: true).execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ada')")
            return path
        },
        Scenario(
            testDescription: "a database written by a newer version", code: .invalidArguments, says: ["newer version of shop", "open it with that version"]
        ) { folder in
            let path = folder.appendingPathComponent("shop.sqlite").path
            try RecordDatabase(path: path, bootstrap: .shopping).save(RecordKit.Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
            try SQLiteFile(path: path).execute("INSERT INTO grdb_migrations VALUES ('v2-from-the-future')")
            return path
        },
        Scenario(
            testDescription: "a read-only database file", code: .invalidArguments, says: ["is read-only", "check its permissions"], needsWriteProtection: true,
            prepare: { folder in
                let path = folder.appendingPathComponent("shop.sqlite").path
                try RecordDatabase(path: path, bootstrap: .shopping).save(RecordKit.Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
                WriteProtection.protect(path)
                return path
            },
            cleanUp: { folder in WriteProtection.unprotect(folder.appendingPathComponent("shop.sqlite").path) }
        ),
        Scenario(
            testDescription: "a read-only folder", code: .invalidArguments, says: ["not writable"], needsWriteProtection: true,
            prepare: { folder in
                let inner = folder.appendingPathComponent("locked")
                try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
                let path = inner.appendingPathComponent("shop.sqlite").path
                try RecordDatabase(path: path, bootstrap: .shopping).save(RecordKit.Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
                WriteProtection.protect(inner.path)
                return path
            },
            cleanUp: { folder in WriteProtection.unprotect(folder.appendingPathComponent("locked").path) }
        ),
    ]

    static func file(in folder: URL, _ content: Data) throws -> String {
        let path = folder.appendingPathComponent("shop.sqlite").path
        try content.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: scenarios)
    func theEngineRefusesWithAClearErrorAndWritesNothing(_ scenario: Scenario) throws {
        guard !scenario.needsWriteProtection || WriteProtection.isAvailable else { return }
        let sandbox = Sandbox()
        defer { scenario.cleanUp(sandbox.folder) }
        let path = try scenario.prepare(sandbox.folder)
        let before = FolderState(sandbox.folder)
        do {
            let database = try RecordDatabase(path: path, bootstrap: .shopping)
            try database.save(RecordKit.Record("Lists", recordName: "L2", fields: ["name": .string("Hardware")]))
            Issue.record("\(path) opened and took a write")
        } catch {
            #expect(error.code == scenario.code, "\(error)")
            #expect(error.message.contains(path), "\(error)")
            for part in scenario.says {
                #expect(error.sentence.contains(part), "\(error)")
            }
        }
        #expect(FolderState(sandbox.folder) == before)
    }

    @Test(arguments: scenarios)
    func shopExitsOneWithTheErrorAndWritesNothing(_ scenario: Scenario) async throws {
        guard !scenario.needsWriteProtection || WriteProtection.isAvailable else { return }
        let sandbox = Sandbox()
        defer { scenario.cleanUp(sandbox.folder) }
        let path = try scenario.prepare(sandbox.folder)
        let before = FolderState(sandbox.folder)
        let run = await shop(["--db", path, "-e", "list add Hardware"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: \(scenario.code.rawValue): "), "\(run.errors)")
        #expect(run.errors.contains(path), "\(run.errors)")
        for part in scenario.says {
            #expect(run.errors.contains(part), "\(run.errors)")
        }
        #expect(run.output.isEmpty)
        #expect(FolderState(sandbox.folder) == before)
    }

    /// A device is refused before SQLite opens it: opened, it failed as a disk I/O error and
    /// left a `-journal` file beside it, in `/dev`.
    @Test(arguments: ["/dev/null", "/dev/full"])
    func aDeviceIsRefusedBeforeAnyFileIsMadeBesideIt(_ path: String) async throws {
        let run = await shop(["--db", path, "-e", "list add Hardware"])
        #expect(run.status == 1)
        #expect(run.errors == "error: invalidArguments: cannot open \(path): it is a device, not a database file; pass another --db path\n")
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        let readOnly = await shop(["--db", path, "--read-only", "-e", "lists"])
        #expect(readOnly.errors == run.errors)
    }

    // MARK: A full disk

    /// A batch that does not fit in the pages left (`PRAGMA max_page_count` on the writing
    /// connection) fails with `limitExceeded` naming the file; nothing of it is stored, and once
    /// there is room the same batch goes through.
    @Test func theEngineFailsABatchThatDoesNotFitAndStoresNoneOfIt() throws {
        let sandbox = Sandbox()
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
        try database.save(RecordKit.Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        let pages = try #require(Int(try database.rawRows("PRAGMA page_count")[0][0]))
        _ = try database.rawRowsOnWriter("PRAGMA max_page_count = \(pages + 4)")
        let before = try database.records(matching: Query("Items")).count
        let changes = try database.changes().count
        let batch = (0..<2000).map { index in
            RecordOperation.create(
                RecordKit.Record(
                    "Items", recordName: "I\(index)",
                    fields: [
                        "name": .string("item \(index) with a name long enough to need pages"),
                        "list": .reference(Reference("L1", action: .deleteSelf)),
                    ]))
        }
        #expect {
            try database.modify(batch)
        } throws: { error in
            let error = error as? RecordKit.RecordError
            return error?.code == .limitExceeded && error?.message.contains(sandbox.database) == true && error?.message.contains("is full") == true
        }
        #expect(try database.records(matching: Query("Items")).count == before)
        #expect(try database.changes().count == changes)
        #expect(try DatabaseAudit.problems(at: sandbox.database).isEmpty)

        _ = try database.rawRowsOnWriter("PRAGMA max_page_count = 1073741823")
        try database.modify(batch)
        #expect(try database.records(matching: Query("Items")).count == before + batch.count)
    }

    /// `shop` whose files may not grow past 256 KiB (`ulimit -f`, as a full disk refuses
    /// writes) fails a large mutation with exit 1 and a disk error naming the file; the
    /// database is unchanged, and without the limit the same script runs.
    @Test func shopFailsACommandThatDoesNotFitAndKeepsTheDatabase() async throws {
        let sandbox = Sandbox()
        #expect(await shop(["--db", sandbox.database, "-e", "list add Groceries"]).status == 0)
        let before = try sandbox.contents()
        let fields = (0..<2000).map { index in
            #"i\#(index): createItems(fields: {name: "item \#(index) with a name long enough to need pages", list: {recordName: "L1", action: DELETE_SELF}}) { recordName }"#
        }
        let mutation = #"mutation { l: createLists(recordName: "L1", fields: {name: "Hardware"}) { recordName } "# + fields.joined(separator: " ") + " }"
        let script = try sandbox.file("big.graphql", mutation + "\n")
        let limited = ["/bin/bash", "-c", #"trap '' XFSZ; ulimit -f 256; exec "$@""#, "limited"]
        guard let child = try ShopBinary.start(["--db", sandbox.database, "-f", script], launcher: limited) else { return }
        let run = try child.finish()
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(script):1: error: "), "\(run.errors)")
        #expect(run.errors.contains(sandbox.database) && run.errors.contains("free space"), "\(run.errors)")
        #expect(try sandbox.contents() == before)
        #expect(try DatabaseAudit.problems(at: sandbox.database).isEmpty)

        guard let unlimited = try ShopBinary.start(["--db", sandbox.database, "-f", script]) else { return }
        #expect(try unlimited.finish().status == 0)
        #expect(try RecordDatabase(path: sandbox.database, bootstrap: .shopping).count(matching: Query("Items")) == 2000)
    }
}

/// The files of a folder and their bytes, to tell that nothing was written. The `-shm` index
/// and an empty `-wal`, which SQLite may create and leave when it opens a file, do not count.
struct FolderState: Equatable {
    var files: [String: Data] = [:]

    init(_ folder: URL) {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            let path = folder.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                files[name] = Data("folder".utf8)
                continue
            }
            let data = FileManager.default.contents(atPath: path) ?? Data()
            if name.hasSuffix("-shm") || (name.hasSuffix("-wal") && data.isEmpty) { continue }
            files[name] = data
        }
    }
}
