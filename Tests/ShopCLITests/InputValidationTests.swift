import Foundation
import RecordKit
import Testing

@testable import ShopCLI

/// Small things a user hit: text that is not UTF-8 on standard input or in an argument,
/// integers past INT64, and looking into a database without writing to it (`--read-only`).
@Suite struct InputValidationTests {
    @Test func standardInputThatIsNotUTF8IsRefusedLikeAScriptFile() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let input = sandbox.folder.appendingPathComponent("input.bin")
        try Data(Array("list add A\nlist add B".utf8) + [0xFF, 0xFE] + Array("\nlist add C\n".utf8)).write(to: input)
        let run = try ShopBinary.run("/bin/sh", ["-c", "\"$0\" --db \"$1\" < \"$2\"", binary, sandbox.database, input.path])
        #expect(run.status == 1)
        #expect(run.errors == "<stdin>:2: error: invalidArguments: standard input is not UTF-8 text at line 2; nothing from that line on was run\n")
        let contents = try sandbox.contents()
        #expect(contents.hasPrefix("list A\nDEFINE SCHEMA"), "\(contents)")
    }

    @Test func anArgumentThatIsNotUTF8IsRefusedRatherThanNamingAnotherFile() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        // The path's é is Latin-1's single byte 0xE9, as a file made on an older system names it.
        let run = try ShopBinary.run("/bin/sh", ["-c", "\"$0\" --db \"$1/$(printf 'caf\\351.sqlite')\" -e lists", binary, sandbox.folder.path])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: invalidArguments: argument 2 ("), "\(run.errors)")
        #expect(run.errors.contains("is not UTF-8 text; shop reads paths, names and commands as UTF-8"))
        // No database was made under a repaired name (caf\u{FFFD}.sqlite).
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.hasPrefix("caf") }.isEmpty)
    }

    @Test func aScriptFromAPipeRunsAndAFolderIsNamedAsOne() async throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let piped = try ShopBinary.run("/bin/sh", ["-c", "echo 'list add Piped' | \"$0\" --db \"$1\" -f /dev/stdin", binary, sandbox.database])
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(piped.output == "added list Piped\n")
        let empty = await shop(["--db", sandbox.database, "-f", try sandbox.file("empty.shop", "")])
        #expect(empty.status == 0, "\(empty.errors)")
        let folder = await shop(["--db", sandbox.database, "-f", sandbox.folder.path])
        #expect(folder.status == 1)
        #expect(folder.errors.contains("cannot read \(sandbox.folder.path): it is a folder; name a file in it"), "\(folder.errors)")
    }

    /// A file is read up to ``SourceFile/maximumBytes``: one with no end (`/dev/zero`) is refused
    /// at the limit, for `-f`, `source`, `import` and `schema import`, instead of filling memory.
    @Test func aFileIsReadUpToTheLimitAndOneWithNoEndIsRefused() async throws {
        let sandbox = Sandbox()
        let file = try sandbox.file("eleven.shop", "list add A\n")
        #expect(try SourceFile.contents(file, maximumBytes: 11).count == 11)
        #expect(throws: RecordError.self) { try SourceFile.contents(file, maximumBytes: 10) }
        let refusal = "cannot read /dev/zero: it is larger than 256 MiB (or has no end, as /dev/zero); split it into files of at most 256 MiB"
        for arguments in [["-f", "/dev/zero"], ["-e", "source /dev/zero"], ["-e", "import Items /dev/zero"], ["-e", "schema import /dev/zero"]] {
            let run = await shop(["--db", sandbox.database] + arguments)
            #expect(run.status == 1)
            #expect(run.errors.hasSuffix("error: limitExceeded: \(refusal)\n"), "\(arguments): \(run.errors)")
        }
    }

    @Test func anIntegerPastINT64SaysItIsOutOfRange() async throws {
        let sandbox = Sandbox()
        let run = await shop([
            "--db", sandbox.database, "-e", "list add A", "-e", "item add A Milk", "-e", "schema add-field Items number INT64",
            "-e", "item set A Milk number=99999999999999999999",
        ])
        #expect(run.status == 1)
        #expect(
            run.errors
                == "error: schemaViolation: Items.number is INT64, and 99999999999999999999 is out of INT64's range (-9223372036854775808…9223372036854775807)\n"
        )
        let words = await shop(["--db", sandbox.database, "-e", "item set A Milk number=two"])
        #expect(words.errors.contains("'two' is not a whole number"), "\(words.errors)")
    }

    /// A field given twice is a slip (the last one won, silently); nothing is written.
    @Test func aFieldGivenTwiceIsRefused() async throws {
        let sandbox = Sandbox()
        let setUp = await shop(["--db", sandbox.database, "-e", "list add A", "-e", "item add A Milk", "-e", "schema add-field Items number INT64"])
        try #require(setUp.status == 0, "\(setUp.errors)")
        for command in ["item add A Bread number=5 number=6", "item set A Milk name=Oat name=Soy"] {
            let run = await shop(["--db", sandbox.database, "-e", command])
            #expect(run.status == 1)
            #expect(run.errors.hasSuffix("= is given twice; give each field once\n"), "\(run.errors)")
        }
        let items = await shop(["--db", sandbox.database, "-e", "items A"])
        #expect(items.output == "item  list  number\nMilk  A          1\n", "\(items.output)")
    }

    /// A standalone copy of the sandbox's database (no `-wal` or `-shm` beside it), as a file
    /// handed over or on read-only media, made with SQLite's `VACUUM INTO`.
    static func standaloneCopy(of sandbox: Sandbox) throws -> String {
        let copy = sandbox.folder.appendingPathComponent("copy.sqlite").path
        let run = try ShopBinary.run(
            "/usr/bin/env",
            [
                "python3", "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('VACUUM INTO ?', (sys.argv[2],))",
                sandbox.database, copy,
            ])
        try #require(run.status == 0, "\(run.errors)")
        return copy
    }

    @Test func readOnlyReadsWithoutWritingAnythingAndRefusesWrites() async throws {
        let sandbox = Sandbox()
        let setup = await shop(["--db", sandbox.database, "-e", "list add Groceries", "-e", "item add Groceries Milk"])
        try #require(setup.status == 0)
        let copy = try Self.standaloneCopy(of: sandbox)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let read = await shop(["--db", copy, "--read-only", "-e", "lists", "-e", "items Groceries", "-e", "{ Lists { name } }"])
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output.contains("Milk"))
        let write = await shop(["--db", copy, "--read-only", "-e", "list add Party"])
        #expect(write.status == 1)
        #expect(write.errors == "error: invalidArguments: \(copy) is open read-only: this command writes, so it was refused and nothing changed\n")
        let graphQL = await shop(["--db", copy, "--read-only", "-e", #"mutation { createLists(fields: {name: "Party"}) { name } }"#])
        #expect(graphQL.errors.contains("is open read-only"), "\(graphQL.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        // Opened immutable: no lock, no -wal or -shm made beside it.
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: copy + "-shm"))
    }

    @Test func readOnlyRefusesWhatItCannotOpen() async throws {
        let sandbox = Sandbox()
        let missing = await shop(["--db", sandbox.folder.appendingPathComponent("nope.sqlite").path, "--read-only", "-e", "lists"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("there is no database at"), "\(missing.errors)")
        let text = try sandbox.file("notes.txt", "not a database\n")
        let other = await shop(["--db", text, "--read-only", "-e", "lists"])
        #expect(other.status == 1)
        #expect(other.errors.hasPrefix("error: invalidArguments: "), "\(other.errors)")
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "not a database\n")
    }
}
