import Foundation
import RecordKit
import Testing

@testable import ShopCLI

/// `import` and `export`: every field type round-trips through CSV and JSON Lines, a bad row
/// anywhere refuses the whole file naming FILE:LINE, and long transfers show a progress bar at a
/// terminal only.
@Suite struct ImportExportTests {
    static let schema = try! CKDBParser.parse(
        """
        DEFINE SCHEMA
            RECORD TYPE Things (
                text        STRING QUERYABLE,
                count       INT64 QUERYABLE,
                ratio       DOUBLE,
                amount      NUMBER,
                at          TIMESTAMP,
                blob        BYTES,
                place       LOCATION,
                file        ASSET,
                owner       REFERENCE,
                tags        LIST<STRING>,
                counts      LIST<INT64>,
                times       LIST<TIMESTAMP>,
                places      LIST<LOCATION>,
                owners      LIST<REFERENCE>
            );
        """)

    /// Records with every field type and the texts CSV must quote: quotes, commas, line breaks,
    /// Unicode (composed and decomposed), the empty text; one record with no values at all.
    static let records: [Record] = [
        Record(
            "Things", recordName: "A",
            fields: [
                "text": .string("He said \"hi\", then\nleft;\r\nCafé ☕ 𝄞 e\u{301}"),
                "count": .int64(Int64.min), "ratio": .double(0.1), "amount": .double(-1.5e300),
                "at": .timestamp(Timestamp.date(milliseconds: 1_732_000_000_123)),
                "blob": .bytes(Data([0, 1, 2, 255, 44, 34, 10])),
                "place": .location(Location(latitude: 52.5200066, longitude: -13.404954)),
                "file": .asset(Asset(content: Data("asset, \"content\"\n".utf8))),
                "owner": .reference(Reference("B", action: .none)),
                "tags": .list([.string("a,b"), .string("\"q\""), .string("")]),
                "counts": .list([.int64(Int64.max), .int64(0)]),
                "times": .list([.timestamp(Timestamp.date(milliseconds: 0))]),
                "places": .list([.location(Location(latitude: -90, longitude: 180))]),
                "owners": .list([.reference(Reference("A", action: .none))]),
            ]),
        Record("Things", recordName: "B", fields: ["text": .string(""), "tags": .list([]), "owner": .reference(Reference("A", action: .deleteSelf))]),
        Record("Things", recordName: "C,\"odd\" name ✓", fields: [:]),
    ]

    private func database(in sandbox: Sandbox, named name: String) throws -> RecordDatabase {
        try RecordDatabase(path: sandbox.folder.appendingPathComponent(name).path, bootstrap: Self.schema)
    }

    private func fields(of database: RecordDatabase) throws -> [String: [String: RecordKit.Value]] {
        Dictionary(uniqueKeysWithValues: try database.records(matching: Query("Things")).map { ($0.recordName, $0.fields) })
    }

    @Test(arguments: [TransferFormat.csv, .jsonl])
    func everyFieldTypeRoundTrips(_ format: TransferFormat) async throws {
        let sandbox = Sandbox()
        let source = try database(in: sandbox, named: "source.sqlite")
        try source.modify(Self.records.map { .create($0) })
        let file = sandbox.folder.appendingPathComponent("things.\(format.rawValue)").path
        let exported = await shop(["--db", source.path ?? "", "-e", "export Things \(file)"])
        #expect(exported.status == 0, "\(exported.errors)")

        let target = try database(in: sandbox, named: "target.sqlite")
        let imported = await shop(["--db", target.path ?? "", "-e", "import Things \(file)"])
        #expect(imported.status == 0, "\(imported.errors) \((try? String(contentsOfFile: file, encoding: .utf8)) ?? "")")
        #expect(imported.output == "imported 3 Things records from \(file)\n")
        #expect(try fields(of: target) == fields(of: source))
        let sha256 = try #require(try Self.sha256(of: "A", in: target))
        #expect(try target.assetContent(sha256: sha256) == Data("asset, \"content\"\n".utf8))

        // Exporting the imported records writes the same file again.
        let again = sandbox.folder.appendingPathComponent("again.\(format.rawValue)").path
        #expect(await shop(["--db", target.path ?? "", "-e", "export Things \(again)"]).status == 0)
        #expect(try String(contentsOfFile: again, encoding: .utf8) == String(contentsOfFile: file, encoding: .utf8))
    }

    private static func sha256(of recordName: String, in database: RecordDatabase) throws -> String? {
        if case .asset(let asset)? = try database.fetch(recordName: recordName)?.fields["file"] { return asset.sha256 }
        return nil
    }

    /// A spreadsheet's CSV starts with a byte order mark: it is not part of the first column's name.
    @Test func aCSVStartingWithAByteOrderMarkImports() async throws {
        let sandbox = Sandbox()
        let file = sandbox.folder.appendingPathComponent("bom.csv")
        try Data([0xEF, 0xBB, 0xBF] + Array("recordName,name\nL1,Groceries\n".utf8)).write(to: file)
        let run = await shop(["--db", sandbox.database, "-e", "import Lists \(file.path)", "-e", "lists"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("imported 1 Lists records") && run.output.contains("Groceries"), "\(run.output)")
    }

    /// Blank lines are no rows, as in JSON Lines: a spreadsheet's CSV often ends with one (it was
    /// "the row has 1 cells; the header names 2"), and a line number still names the line.
    @Test func blankLinesInACSVAreNoRows() async throws {
        let sandbox = Sandbox()
        let file = sandbox.folder.appendingPathComponent("blank.csv").path
        try "\r\nrecordName,name\r\nL1,Groceries\r\n\r\nL2,Hardware\r\n\r\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = await shop(["--db", sandbox.database, "-e", "import Lists \(file)", "-e", "lists"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("imported 2 Lists records"), "\(run.output)")
        var reader = CSV.Reader(Array("a,b\n\n\nc,\"\"\n".utf8))
        #expect(try reader.next()?.cells == ["a", "b"])
        let afterBlankLines = try reader.next()
        #expect(afterBlankLines?.cells == ["c", ""])
        #expect(afterBlankLines?.line == 4)
        #expect(try reader.next() == nil)
    }

    /// A file saved as Latin-1 or Windows-1252 (Excel's plain "CSV") is refused at its first line
    /// that is not UTF-8, and nothing is imported; its bytes are never repaired into U+FFFD.
    @Test(arguments: [("latin1.csv", "name\nCorner\nCaf"), ("latin1.jsonl", "{\"name\":\"Corner\"}\n{\"name\":\"Caf")])
    func aFileThatIsNotUTF8IsRefusedAtItsLine(name: String, start: String) async throws {
        let sandbox = Sandbox()
        let file = sandbox.folder.appendingPathComponent(name)
        try Data(Array(start.utf8) + [0xE9] + Array((name.hasSuffix(".csv") ? "\n" : "\"}\n").utf8)).write(to: file)
        let run = await shop(["--db", sandbox.database, "-e", "import Lists \(file.path)", "-e", "count Lists"])
        #expect(run.status == 1)
        let line = name.hasSuffix(".csv") ? 3 : 2
        #expect(run.errors.contains("\(file.path):\(line): the file is not UTF-8 text; save it as UTF-8"), "\(run.errors)")
        // The spreadsheet's way to save UTF-8 is advice for a CSV file only.
        #expect(run.errors.contains("CSV UTF-8") == name.hasSuffix(".csv"), "\(run.errors)")
        #expect(await shop(["--db", sandbox.database, "-e", "count Lists"]).output == "0\n")
    }

    /// An export is in recordName order, so a record may come before the record it references
    /// with DELETE_SELF: the file imports back all the same; a target it lacks names its line.
    @Test(arguments: [TransferFormat.csv, .jsonl])
    func anExportWhoseRecordsReferenceLaterOnesImportsBack(format: TransferFormat) async throws {
        let sandbox = Sandbox()
        let (source, target) = (sandbox.folder.appendingPathComponent("a.sqlite").path, sandbox.folder.appendingPathComponent("b.sqlite").path)
        let schema = ["-e", "schema add-type C", "-e", "schema add-field C p REFERENCE QUERYABLE", "-e", "schema add-field C name STRING"]
        #expect(await shop(["--db", source] + schema).status == 0)
        #expect(await shop(["--db", target] + schema).status == 0)
        let child = #"a: createC(recordName: "a", fields: {name: "child", p: {recordName: "b", action: DELETE_SELF}}) { name }"#
        let create = #"mutation { b: createC(recordName: "b", fields: {name: "parent"}) { name } \#(child) }"#
        #expect(await shop(["--db", source, "-e", create]).status == 0)
        let file = sandbox.folder.appendingPathComponent("c.\(format.rawValue)").path
        #expect(await shop(["--db", source, "-e", "export C \(file) --format \(format.rawValue)"]).status == 0)
        let imported = await shop(["--db", target, "-e", "import C \(file) --format \(format.rawValue)", "-e", "count C"])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.hasSuffix("2\n"), "\(imported.output)")
        // Without the parent, the child's line is named.
        let text = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").filter { !$0.contains("parent") }.joined(separator: "\n")
        try (text + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let other = sandbox.folder.appendingPathComponent("c2.sqlite").path
        #expect(await shop(["--db", other] + schema).status == 0)
        let refused = await shop(["--db", other, "-e", "import C \(file) --format \(format.rawValue)"])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("\(file):\(format == .csv ? 2 : 1): ") && refused.errors.contains("'b'"), "\(refused.errors)")
    }

    /// A CSV cell that is not a value of its field's type is refused with a value of that type
    /// to write instead, and every such value, for every type, imports.
    @Test func aBadCellShowsAValueOfItsTypeThatImports() async throws {
        let sandbox = Sandbox()
        let target = try database(in: sandbox, named: "target.sqlite")
        let fields = try #require(Self.schema.recordType(named: "Things")).userFields
        // L1, the record the REFERENCE values name, comes in the same file.
        let text =
            CSV.line(["recordName"] + fields.map(\.name)) + CSV.line(["X"] + fields.map { TransferValue.example(of: $0.type) })
            + CSV.line(["L1"] + fields.map { _ in nil })
        let file = sandbox.folder.appendingPathComponent("examples.csv").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = await shop(["--db", target.path ?? "", "-e", "import Things \(file)"])
        #expect(imported.status == 0, "\(imported.errors) \(text)")
        #expect(try target.fetch(recordName: "X")?.fields.count == fields.count)

        let bad = sandbox.folder.appendingPathComponent("bad.csv").path
        for (field, cell) in [("owner", "L1"), ("count", "many"), ("places", "52.5,13.4")] {
            try CSV.line(["recordName", field]).appending(CSV.line(["Y", cell])).write(toFile: bad, atomically: true, encoding: .utf8)
            let refused = await shop(["--db", target.path ?? "", "-e", "import Things \(bad)"])
            let type = try #require(fields.first { $0.name == field }).type
            #expect(refused.status == 1)
            #expect(refused.errors.contains("\(bad):2: \(field): '\(cell)' is not"), "\(refused.errors)")
            #expect(refused.errors.contains("; write it as, say, \(TransferValue.example(of: type))"), "\(refused.errors)")
        }
    }

    @Test func csvQuotesWhatItMustAndTellsAbsentFromEmpty() throws {
        #expect(CSV.line(["plain", "a,b", "say \"x\"", "two\nlines", "", nil, "é"]) == "plain,\"a,b\",\"say \"\"x\"\"\",\"two\nlines\",\"\",,é\n")
        var reader = CSV.Reader(Array("a,\"b\"\"c\",,\"\"\r\n\"multi\nline\",x\n".utf8))
        #expect(try reader.next()?.cells == ["a", "b\"c", nil, ""])
        let second = try reader.next()
        #expect(second?.cells == ["multi\nline", "x"])
        #expect(second?.line == 2)
        #expect(try reader.next() == nil)
    }

    /// A CSV file of `count` items of list L1, with `bad` put in place of row `badRow` (1-based).
    private func itemsFile(in sandbox: Sandbox, count: Int, badRow: Int, bad: String) throws -> String {
        var text = "recordName,name,list,number\n"
        text.reserveCapacity(count * 60)
        for row in 1...count {
            text += row == badRow ? bad : "I\(row),item \(row),\"{\"\"recordName\"\":\"\"L1\"\",\"\"action\"\":\"\"DELETE_SELF\"\"}\",\(row)"
            text += "\n"
        }
        let path = sandbox.folder.appendingPathComponent("items-\(badRow).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aBadRowAnywhereInALargeFileChangesNothing() async throws {
        let sandbox = Sandbox()
        let setUp = await shop([
            "--db", sandbox.database, "-e", "schema add-field Items number INT64", "-e", "{ __typename }",
            "-e", #"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#,
        ])
        try #require(setUp.status == 0, "\(setUp.errors)")
        let rows = 100_000
        let cases: [(row: Int, bad: String, reason: String)] = [
            (1, "I1,item 1,\"{\"\"recordName\"\":\"\"L1\"\"}\",many", "number: 'many' is not a number"),
            (rows / 2, "Ix,item x,\"{\"\"recordName\"\":\"\"L9\"\",\"\"action\"\":\"\"DELETE_SELF\"\"}\",1", "L9"),
            (rows, "I1,duplicate,,1", "I1"),
        ]
        for (row, bad, reason) in cases {
            let file = try itemsFile(in: sandbox, count: rows, badRow: row, bad: bad)
            let run = await shop(["--db", sandbox.database, "-e", "import Items \(file)"])
            #expect(run.status == 1)
            // The header is line 1, so row N is on line N + 1.
            #expect(run.errors.contains("\(file):\(row + 1): "), "\(run.errors)")
            #expect(run.errors.contains(reason), "\(run.errors)")
            #expect(await shop(["--db", sandbox.database, "-e", "count Items"]).output == "0\n")
        }
    }

    /// SIGINT while an import writes its rows (its transaction spilling into the WAL, not yet
    /// committed) cancels it: exit 130, `cancelled (Ctrl-C)`, and not one row stored.
    @Test func ctrlCDuringAnImportStoresNothing() async throws {
        let sandbox = Sandbox()
        let setUp = await shop([
            "--db", sandbox.database, "-e", "schema add-field Items number INT64",
            "-e", #"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#,
        ])
        try #require(setUp.status == 0, "\(setUp.errors)")
        let file = try itemsFile(in: sandbox, count: 300_000, badRow: 0, bad: "")
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let wal = sandbox.database + "-wal"
        let run = try ShopBinary.run(binary, ["--db", sandbox.database, "-e", "import Items \(file)"], timeout: 300) { child in
            let deadline = Date().addingTimeInterval(120)
            func walBytes() -> Int { ((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int) ?? 0 }
            while child.isRunning, Date() < deadline, walBytes() < 2_000_000 {
                Thread.sleep(forTimeInterval: 0.005)
            }
            child.send(SIGINT)
        }
        #expect(run.status == 130, "\(run.errors)")
        #expect(run.errors.hasSuffix("cancelled (Ctrl-C)\n"), "\(run.errors)")
        #expect(await shop(["--db", sandbox.database, "-e", "count Items"]).output == "0\n")
    }

    @Test func countsAndExportsFollowWhere() async throws {
        let sandbox = Sandbox()
        let run = await shop([
            "--db", sandbox.database, "-e", "list add Groceries", "-e", "schema add-field Items number INT64",
            "-e", "item add Groceries Milk number=1", "-e", "item add Groceries Tea number=3", "-e", "item add Groceries Jam",
            "-e", "count Items", "-e", "count Items --where 'number >= 2'", "-e", "count Lists --where 'name == \"Nope\"'",
        ])
        #expect(run.output.hasSuffix("3\n1\n0\n"), "\(run.output)")
        let exported = await shop(["--db", sandbox.database, "-e", "export Items --format jsonl --where 'number >= 2'"])
        #expect(exported.output.split(separator: "\n").count == 1)
        #expect(exported.output.contains(#""name":"Tea""#))
        #expect(await shop(["--db", sandbox.database, "-e", "count Nope"]).errors.contains("schemaViolation"))
        let json = await shop(["--db", sandbox.database, "--json", "-e", "count Items"])
        #expect(json.output == #"{"recordType":"Items","count":3}"# + "\n")
        // With --json, an export printed is one document: the records as one array, on one line.
        let printed = await shop(["--db", sandbox.database, "--json", "-e", "export Items --where 'number >= 2'", "-e", "count Items"])
        let lines = printed.output.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("[{") && lines[0].hasSuffix("}]") && lines[0].contains(#""name":"Tea""#), "\(printed.output)")
    }

    @Test func aLongImportShowsProgressAtATerminalOnly() async throws {
        let sandbox = Sandbox()
        let setUp = await shop([
            "--db", sandbox.database, "-e", "schema add-field Items number INT64",
            "-e", #"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#,
        ])
        try #require(setUp.status == 0)
        // No bad row: a row past the end.
        let file = try itemsFile(in: sandbox, count: 100_000, badRow: 0, bad: "")
        let binary = try #require(ShopBinary.path)
        let terminal = try ShopBinary.onTerminal(binary, ["--db", sandbox.database, "-e", "import Items \(file)"], timeout: 300)
        #expect(terminal.status == 0, "\(terminal.text)")
        #expect(terminal.text.contains("\rimport ["), "\(terminal.text.prefix(500))")
        #expect(terminal.text.contains("imported 100000 Items records"))

        let other = Sandbox()
        try #require(
            await shop([
                "--db", other.database, "-e", "schema add-field Items number INT64",
                "-e", #"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } }"#,
            ]).status == 0)
        let piped = try #require(try ShopBinary.shop(["--db", other.database, "-e", "import Items \(file)"], timeout: 300))
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(!piped.errors.contains("import ["), "\(piped.errors.prefix(500))")
        #expect(piped.errors.isEmpty)
    }
}
