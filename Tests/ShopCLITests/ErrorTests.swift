import Foundation
import Testing

@testable import ShopCLI

/// Every command's failures: a clear `error: <code>: <message>` on standard error, exit status
/// 1, and the database exactly as it was.
@Suite struct ErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var command: String
        /// The error code, or `nil` where the query-language engine chooses it.
        var code: String?
        var message: String
        var testDescription: String { command }

        init(_ command: String, _ code: String?, _ message: String) {
            self.command = command
            self.code = code
            self.message = message
        }
    }

    /// Run on a database with lists Groceries (item Milk) and 'Corner shop'.
    static let cases: [Case] = [
        Case("lsts", "invalidArguments", "unknown command 'lsts' (did you mean 'lists'?)"),
        Case("itm add Groceries Eggs", "invalidArguments", "unknown command 'itm' (did you mean 'item'?)"),
        Case("list ad Eggs", "invalidArguments", "unknown command 'list ad' (did you mean 'add'?)"),
        Case("schema frob", "invalidArguments", "unknown command 'schema frob'"),
        Case("list", "invalidArguments", "list needs one of: add, rename, delete"),
        Case("transaction", "invalidArguments", "transaction needs one of: show, delete"),
        Case("list add", "invalidArguments", "Missing expected argument '<name>' (usage: list add <name>)"),
        Case("list add a b", "invalidArguments", "Unexpected argument 'b' (usage: list add <name>)"),
        Case("list rename Groceries", "invalidArguments", "Missing expected argument '<new-name>'"),
        Case("items", "invalidArguments", "Missing expected argument '<list>'"),
        Case("item add Groceries", "invalidArguments", "Missing expected argument '<name>'"),
        Case("item delete Groceries Milk extra", "invalidArguments", "Unexpected argument 'extra'"),
        Case("lists extra", "invalidArguments", "Unexpected argument 'extra' (usage: lists)"),
        Case("quit now", "invalidArguments", "Unexpected argument 'now'"),
        Case("schema add-field Items number", "invalidArguments", "Missing expected argument '<field-type>'"),
        Case("list add 'Open", "invalidArguments", "unterminated ' quote"),
        Case("list add ''", "invalidArguments", "a list name cannot be empty"),
        Case("item add Groceries ' '", "invalidArguments", "an item name cannot be empty"),
        Case("list delete Nowhere", "unknownItem", "there is no list named 'Nowhere'; see the lists with: lists"),
        Case("list rename Nowhere Somewhere", "unknownItem", "there is no list named 'Nowhere'"),
        Case("items Nowhere", "unknownItem", "there is no list named 'Nowhere'"),
        Case("item add Nowhere Eggs", "unknownItem", "there is no list named 'Nowhere'"),
        Case("item delete Groceries Caviar", "unknownItem", "list 'Groceries' has no item named 'Caviar'"),
        Case("item set Groceries Caviar name=Roe", "unknownItem", "list 'Groceries' has no item named 'Caviar'"),
        Case("item delete 'Corner shop' Milk", "unknownItem", "list 'Corner shop' has no item named 'Milk'"),
        Case("list add Groceries", "schemaViolation", "there is already a list named 'Groceries'"),
        Case("list rename 'Corner shop' Groceries", "schemaViolation", "there is already a list named 'Groceries'"),
        Case("item add Groceries Milk", "schemaViolation", "list 'Groceries' already has an item named 'Milk'"),
        Case("item add Groceries Eggs number=2", "schemaViolation", "Items has no field 'number'; add it with: schema add-field Items number INT64"),
        Case("item add Groceries Eggs nme=x", "schemaViolation", "Items has no field 'nme' (did you mean 'name'?)"),
        Case("item add Groceries Eggs number", "invalidArguments", "expected FIELD=VALUE, got 'number'"),
        Case("item add Groceries Eggs =2", "invalidArguments", "expected FIELD=VALUE, got '=2'"),
        Case("item set Groceries Milk", "invalidArguments", "item set needs at least one FIELD=VALUE"),
        Case("item add Groceries Tea name=Coffee", "invalidArguments", "item add takes the list and the item's name as its arguments, not name="),
        Case("item add Groceries Tea list=Groceries", "invalidArguments", "to rename or move an item later: item set LIST NAME list=NEW"),
        Case("item set Groceries Milk name=", "invalidArguments", "an item's name cannot be removed"),
        Case("item set Groceries Milk list=Nowhere", "unknownItem", "there is no list named 'Nowhere'"),
        Case("item set Groceries Milk recordName=x", "invalidArguments", "recordName is a system field"),
        Case("items Groceries --sort desc name", "invalidArguments", "--sort takes fields, each optionally followed by desc or asc"),
        Case("items Groceries --sort", "invalidArguments", "Missing value for '--sort <field [desc]>'"),
        Case("items Groceries --where 'name =='", "invalidArguments", "expected a value after '=='"),
        Case("schema add-field Items number INTEGER", "invalidArguments", "'INTEGER' is not a field type"),
        Case("schema add-field Items number INT64 FAST", "invalidArguments", "'FAST' is not an index flag"),
        Case("schema add-field Items note 'STRING(Lists)'", "invalidArguments", "only REFERENCE fields name a record type"),
        Case("schema add-field Items name STRING", "schemaViolation", "cannot add field Items.name: it already exists"),
        Case("schema add-field Nope x STRING", "schemaViolation", "there is no record type 'Nope'"),
        Case("schema add-field Items shop 'REFERENCE(Shops)'", "schemaViolation", "Items.shop references 'Shops', which is not a record type"),
        Case("schema add-type Lists", "schemaViolation", "cannot add record type Lists: it already exists; add fields to it with: schema add-field Lists"),
        Case("schema add-type _hidden", "invalidArguments", "_hidden"),
        Case("schema import /nonexistent/x.ckdb", "invalidArguments", "cannot read /nonexistent/x.ckdb: it does not exist"),
        Case("schema export /nonexistent/x.ckdb", "invalidArguments", "cannot write /nonexistent/x.ckdb"),
        Case("transaction show nope", "unknownItem", "there is no stored transaction 'nope'"),
        Case("transaction delete nope", "unknownItem", "there is no stored transaction 'nope'"),
        Case("source /nonexistent/x.shop", "invalidArguments", "cannot read /nonexistent/x.shop: it does not exist"),
        Case("explain", "invalidArguments", "explain needs a query"),
        Case("explain lists", "invalidArguments", "explain cannot explain 'lists'; it takes: items LIST [options], or a GraphQL query"),
        Case("explain items Nowhere", "unknownItem", "there is no list named 'Nowhere'"),
        Case("items groceries", "unknownItem", "there is no list named 'groceries'; did you mean 'Groceries'?"),
        Case("list delete 'corner SHOP'", "unknownItem", "did you mean 'Corner shop'?"),
        Case("item delete Groceries milk", "unknownItem", "list 'Groceries' has no item named 'milk'; did you mean 'Milk'?"),
        Case(#"mutation { createLists(fields: {name: "Groceries"}) { name } }"#, "schemaViolation", "Lists declares UNIQUE (name)"),
        Case(#"mutation { createLists(fields: {name: ""}) { name } }"#, "schemaViolation", "Lists.name is NOT EMPTY"),
        Case("help frob", "invalidArguments", "unknown command 'frob'"),
        Case("help list frob", "invalidArguments", "unknown command 'list frob'"),
        Case("{ Lists { name }", "invalidArguments", "unbalanced GraphQL"),
        Case("{ Nope { name } }", nil, "Nope"),
        Case("mutation { deleteLists(recordName: \"nope\") { deleted } }", nil, ""),
    ]

    /// What is wrong with an imported schema file names the file: `FILE:LINE:COLUMN: ` before
    /// a parse error (with its line and a caret) and before a refusal of a field or record type
    /// the file declares (at the declaration).
    @Test func aSchemaFileThatCannotBeImportedIsNamedInItsError() async throws {
        let sandbox = Sandbox()
        let misspelt = try sandbox.file("misspelt.ckdb", "DEFINE SCHEMA\nRECORD TYPE Y3 ( d INTT64 );\n")
        let unsearchable = try sandbox.file("unsearchable.ckdb", "DEFINE SCHEMA\nRECORD TYPE Y3 ( d INT64 SEARCHABLE );\n")
        let retyped = try sandbox.file("retyped.ckdb", "DEFINE SCHEMA\n\nRECORD TYPE Lists (\n    name STRING\n);\nRECORD TYPE Items (\n    name INT64\n);\n")
        let recased = try sandbox.file("recased.ckdb", "DEFINE SCHEMA\nRECORD TYPE items ( name STRING );\n")
        let parse = await shop(["--db", sandbox.database, "-e", "schema import \(misspelt)"])
        #expect(parse.errors.hasPrefix("error: invalidArguments: \(misspelt):2:20: expected a field type"), "\(parse.errors)")
        #expect(parse.errors.hasSuffix("    RECORD TYPE Y3 ( d INTT64 );\n                       ^\n"), "\(parse.errors)")
        let rule = await shop(["--db", sandbox.database, "-e", "schema import \(unsearchable)"])
        #expect(rule.errors.hasPrefix("error: schemaViolation: \(unsearchable):2:18: Y3.d is INT64; only STRING"), "\(rule.errors)")
        // A field whose type differs from the stored one's: its line; a record type: its name.
        let change = await shop(["--db", sandbox.database, "-e", "schema import \(retyped)"])
        #expect(change.errors.hasPrefix("error: schemaViolation: \(retyped):7:5: cannot change Items.name from STRING to INT64"), "\(change.errors)")
        #expect(change.errors.hasSuffix("        name INT64\n        ^\n"), "\(change.errors)")
        let type = await shop(["--db", sandbox.database, "-e", "schema import \(recased)"])
        #expect(type.errors.hasPrefix("error: schemaViolation: \(recased):2:13: cannot add record type items"), "\(type.errors)")
    }

    /// A long name in an error is shown by its start and its length, not in full; a short one
    /// whole.
    @Test func anErrorShowsALongNameByItsStartAndLength() async throws {
        let sandbox = Sandbox()
        let long = String(repeating: "x", count: 5_000)
        let missing = await shop(["--db", sandbox.database, "-e", "item add \(long) Milk"])
        let start = String(repeating: "x", count: QuotedName.shownPrefixCharacters)
        #expect(missing.errors == "error: unknownItem: there is no list named '\(start)…' (5,000 characters); see the lists with: lists\n")
        let taken = await shop(["--db", sandbox.database, "-e", "list add \(long)", "-e", "item add \(long) Milk", "-e", "item add \(long) Milk"])
        #expect(taken.errors.hasPrefix("error: schemaViolation: list '\(start)…' (5,000 characters) already has an item named 'Milk'"), "\(taken.errors)")
        #expect(QuotedName.quoted(String(repeating: "é", count: QuotedName.maximumShownCharacters)).count == QuotedName.maximumShownCharacters + 2)
    }

    @Test(arguments: cases)
    func aFailingCommandSaysWhyExitsOneAndChangesNothing(_ failure: Case) async throws {
        let sandbox = Sandbox()
        let setup = await shop(["--db", sandbox.database, "-e", "list add Groceries", "-e", "list add 'Corner shop'", "-e", "item add Groceries Milk"])
        try #require(setup.status == 0)
        let before = try sandbox.contents()
        let run = await shop(["--db", sandbox.database, "-e", failure.command])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: \(failure.code.map { $0 + ": " } ?? "")"), "\(run.errors)")
        #expect(failure.message.isEmpty || run.errors.contains(failure.message), "\(run.errors)")
        #expect(try sandbox.contents() == before)
    }

    /// A REFERENCE field set with FIELD=VALUE finds its target by name, as list= does, or by
    /// recordName, and refuses one that does not exist instead of storing a dangling reference.
    @Test func referenceFieldsAreSetByTheTargetsNameAndNeverDangle() async throws {
        let sandbox = Sandbox()
        let setup = await shop([
            "--db", sandbox.database, "-e", "list add Groceries", "-e", "item add Groceries Paint",
            "-e", "schema add-type Stores", "-e", "schema add-field Stores name STRING QUERYABLE",
            "-e", "schema add-field Items store 'REFERENCE(Stores)'", "-e", "schema add-field Items seen REFERENCE",
            "-e", #"mutation { createStores(recordName: "S1", fields: {name: "Bauhaus"}) { recordName } }"#,
        ])
        try #require(setup.status == 0, "\(setup.errors)")
        let before = try sandbox.contents()
        for (command, message) in [
            ("item set Groceries Paint store=Obi", "Items.store references no Stores record named 'Obi' (by name or recordName); create it first"),
            ("item add Groceries Nails store=Obi", "Items.store references no Stores record named 'Obi'"),
            ("item set Groceries Paint seen=nowhere", "Items.seen references no record named 'nowhere'"),
        ] {
            let run = await shop(["--db", sandbox.database, "-e", command])
            #expect(run.status == 1)
            #expect(run.errors.hasPrefix("error: unknownItem: \(message)"), "\(run.errors)")
        }
        #expect(try sandbox.contents() == before)
        let set = await shop([
            "--db", sandbox.database, "--json", "-e", "item set Groceries Paint store=Bauhaus seen=S1",
            "-e", "{ Items { name store { name } seen { recordName } } }",
        ])
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output.contains(#"{"name":"Paint","store":{"name":"Bauhaus"},"seen":{"recordName":"S1"}}"#), "\(set.output)")
    }

    @Test func aScriptStopsAtItsFirstFailureNamingFileAndLine() async throws {
        let sandbox = Sandbox()
        let script = try sandbox.file("story.shop", "# comment\nlist add Groceries\nitems Nowhere\nlist add Never\n")
        let run = await shop(["--db", sandbox.database, "-f", script])
        #expect(run.status == 1)
        #expect(run.errors == "\(script):3: error: unknownItem: there is no list named 'Nowhere'; see the lists with: lists\n")
        #expect(try sandbox.contents().hasPrefix("list Groceries\nDEFINE SCHEMA"))
    }

    @Test func unbalancedGraphQLAtTheEndOfAScriptIsAnError() async throws {
        let sandbox = Sandbox()
        let before = try sandbox.contents()
        let script = try sandbox.file("open.graphql", "# a query left open\n{ Lists {\n  name\n")
        let run = await shop(["--db", sandbox.database, "-f", script])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(script):2: error: invalidArguments: unbalanced GraphQL"))
        #expect(run.output == "")
        #expect(try sandbox.contents() == before)
    }

    @Test func keepGoingReportsEveryFailureAndExitsOneAtTheEnd() async throws {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database, "--keep-going", "-e", "items Nowhere", "-e", "list add Groceries", "-e", "lsts"])
        #expect(run.status == 1)
        #expect(run.errors.split(separator: "\n").count == 2)
        #expect(try sandbox.contents().hasPrefix("list Groceries\n"))
    }

    @Test func failuresFromStandardInputNameTheLine() throws {
        let sandbox = Sandbox()
        guard let run = try ShopBinary.shop(["--db", sandbox.database], input: "list add Groceries\nlist delete Nowhere\nlist add Never\n") else { return }
        #expect(run.status == 1)
        #expect(run.errors == "<stdin>:2: error: unknownItem: there is no list named 'Nowhere'; see the lists with: lists\n")
        #expect(run.output == "added list Groceries\n")
    }

    @Test func aBadCommandLineIsAnErrorWithTheUsage() async {
        let run = await shop(["--frobnicate"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: invalidArguments: Unknown option '--frobnicate'"))
        #expect(run.errors.contains("\nusage: shop [--db <path>]"))
    }

    @Test func aDatabaseThatCannotBeOpenedIsAnError() async {
        let run = await shop(["--db", "/nonexistent/folder/shop.sqlite", "-e", "lists"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: invalidArguments: cannot open /nonexistent/folder/shop.sqlite"))
    }
}
