import Testing

@testable import ShopCLI

/// Columns line up by what a terminal shows, not by characters: wide CJK and emoji take two
/// columns, combining marks and joiners none; long cells are cut with `…`.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Milk", 4), ("牛乳", 4), ("ｶﾀｶﾅ", 4), ("カタカナ", 8), ("우유", 4), ("Ｍｉｌｋ", 8),
        ("e\u{301}", 1), ("Crème brûlée", 12), ("🛒", 2), ("👩‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("❤", 1),
        ("\u{200B}", 0), ("a\u{0}b", 2),
    ])
    func textTakesTheColumnsATerminalGivesIt(_ text: String, _ width: Int) {
        #expect(text.displayWidth == width)
    }

    @Test func longTextIsCutWithAnEllipsisWithinItsWidth() {
        #expect("Milk".truncated(toWidth: 4) == "Milk")
        #expect("Oat milk".truncated(toWidth: 4) == "Oat…")
        #expect("牛乳と卵".truncated(toWidth: 6) == "牛乳…")
        #expect("牛乳と卵".truncated(toWidth: 5) == "牛乳…")
        #expect("🛒🛒🛒".truncated(toWidth: 4) == "🛒…")
    }

    @Test func tablesOfWideAndCombinedTextAlignAndCutLongCells() async throws {
        let sandbox = Sandbox()
        let long = String(repeating: "very long name ", count: 5)
        let names = ["Milk", "牛乳", "Crème brûlée", "🍎 Apples", "👩‍👩‍👧 family pack", "우유", long]
        var arguments = ["--db", sandbox.database, "-e", "list add 'Grocery 🛒'", "-e", "schema add-field Items number INT64"]
        for (index, name) in names.enumerated() {
            arguments += ["-e", "item add 'Grocery 🛒' '\(name)' number=\(index * 7)"]
        }
        _ = await shop(arguments)
        let run = await shop([
            "--db", sandbox.database, "-e", "lists", "-e", "items 'Grocery 🛒'", "-e", "{ Items(sort: [{name: ASC}]) { name number list { name } } }",
        ])
        #expect(run.status == 0, "\(run.errors)")
        try Snapshot.check(run.output, named: "wide-text-tables")
        for line in run.output.split(separator: "\n") {
            #expect(String(line).displayWidth <= 2 * TextTable.maximumCellWidth + 20, "\(line)")
        }
    }
}
