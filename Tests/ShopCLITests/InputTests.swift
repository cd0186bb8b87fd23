import Foundation
import RecordKit
import RecordQL
import Testing

@testable import ShopCLI

/// Splitting lines into words, and lines into commands and GraphQL documents.
@Suite struct InputTests {
    @Test(arguments: [
        ("list add Groceries", ["list", "add", "Groceries"]),
        ("  item   add  'Corner shop'  Milk ", ["item", "add", "Corner shop", "Milk"]),
        (#"item add "Joe's shop" "say \"hi\"""#, ["item", "add", "Joe's shop", #"say "hi""#]),
        ("item set L I note='oat milk' number=2", ["item", "set", "L", "I", "note=oat milk", "number=2"]),
        (#"list add Tom\'s"#, ["list", "add", "Tom's"]),
        ("list add ''", ["list", "add", ""]),
        ("items L --where \"name == 'x y'\"", ["items", "L", "--where", "name == 'x y'"]),
    ])
    func wordsAreSplitLikeAShellDoes(_ line: String, _ words: [String]) throws {
        #expect(try LineTokenizer.words(line) == words)
    }

    @Test func whiteSpaceIsUnicodesWhiteSpaceForEveryScalar() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isWhitespace == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }

    @Test func anUnterminatedQuoteIsAnError() {
        #expect(throws: RecordError.self) { try LineTokenizer.words("list add 'Corner shop") }
    }

    @Test(arguments: [("Milk", "Milk"), ("Corner shop", "'Corner shop'"), ("Joe's", #""Joe's""#), ("", "''")])
    func namesAreQuotedWhenTheyNeedIt(_ name: String, _ quoted: String) throws {
        #expect(LineTokenizer.quote(name) == quoted)
        #expect(try LineTokenizer.words("list add " + quoted) == ["list", "add", name])
    }

    @Test func graphQLSpansLinesUntilItsBracesBalance() throws {
        var assembler = LineAssembler()
        #expect(try assembler.feed("query Q", number: 1) == nil)
        #expect(try assembler.feed("{ Lists(predicate: \"name == '}'\") {", number: 2) == nil)
        #expect(try assembler.feed("  name # } not a brace", number: 3) == nil)
        #expect(assembler.isPending)
        let entry = try assembler.feed("} }", number: 4)
        #expect(entry == ScriptEntry(kind: .graphQL("query Q\n{ Lists(predicate: \"name == '}'\") {\n  name # } not a brace\n} }"), line: 1))
        #expect(!assembler.isPending)
    }

    @Test func blockStringsMaySpanLines() throws {
        var balance = GraphQLTextScanner()
        balance.scan("{ a(text: \"\"\" {")
        balance.scan("\n } } \"\"\") }")
        #expect(balance.isComplete)
    }

    @Test func linesAreCommandsCommentsOrGraphQL() throws {
        var assembler = LineAssembler()
        #expect(try assembler.feed("# a comment", number: 1) == nil)
        #expect(try assembler.feed("   ", number: 2) == nil)
        #expect(try assembler.feed("lists", number: 3) == ScriptEntry(kind: .command(["lists"]), line: 3))
        #expect(try assembler.feed("{ Lists { name } }", number: 4) == ScriptEntry(kind: .graphQL("{ Lists { name } }"), line: 4))
        #expect(try assembler.feed("mutation{ a }", number: 5) == ScriptEntry(kind: .graphQL("mutation{ a }"), line: 5))
        #expect(try assembler.feed("explain { Items { name } }", number: 6) == ScriptEntry(kind: .explainGraphQL("{ Items { name } }"), line: 6))
        #expect(try assembler.feed("queryX", number: 7) == ScriptEntry(kind: .command(["queryX"]), line: 7))
        #expect(try assembler.feed("watch { Items { name } }", number: 8) == ScriptEntry(kind: .watchGraphQL("{ Items { name } }"), line: 8))
        #expect(try assembler.feed("watch subscription {", number: 9) == nil)
        #expect(try assembler.feed("  Lists { name } }", number: 10) == ScriptEntry(kind: .watchGraphQL("subscription {\n  Lists { name } }"), line: 9))
        #expect(try assembler.feed("watch items", number: 11) == ScriptEntry(kind: .command(["watch", "items"]), line: 11))
    }

    @Test func anUnfinishedDocumentIsAnErrorAtTheEndAndCanBeAbandoned() throws {
        var assembler = LineAssembler()
        _ = try assembler.feed("{ Lists {", number: 1)
        #expect(assembler.pendingLine == 1)
        #expect(throws: RecordError.self) { try assembler.finish() }
        _ = try assembler.feed("{ Lists {", number: 2)
        assembler.abandon()
        try assembler.finish()
    }
}

/// The command line: `-e` and `-f` in the order given, and where the database is.
@Suite struct OptionsTests {
    @Test func stepsKeepTheOrderOfTheCommandLine() throws {
        let arguments = ["--db", "x.sqlite", "-f", "a.shop", "-e", "lists", "--json", "-f", "b.shop", "-e", "items L"]
        let options = try ShopOptions.parse(arguments)
        #expect(options.steps(in: arguments) == [.file("a.shop"), .command("lists"), .file("b.shop"), .command("items L")])
    }

    @Test func theDatabaseDefaultsToShopDBThenXDGDataHomeThenHome() throws {
        let sandbox = Sandbox()
        #expect(try DatabaseLocation.path(option: "given.sqlite", environment: ["SHOP_DB": "env.sqlite"]) == "given.sqlite")
        #expect(try DatabaseLocation.path(option: nil, environment: ["SHOP_DB": "env.sqlite"]) == "env.sqlite")
        let xdg = sandbox.folder.appendingPathComponent("data").path
        #expect(try DatabaseLocation.path(option: nil, environment: ["XDG_DATA_HOME": xdg]) == xdg + "/shop/shop.sqlite")
        #expect(FileManager.default.fileExists(atPath: xdg + "/shop"))
        #expect(try DatabaseLocation.path(option: nil, environment: ["HOME": sandbox.home]) == sandbox.home + "/.local/share/shop/shop.sqlite")
    }
}
