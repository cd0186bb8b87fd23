import Testing

@testable import ShopCLI

/// Tab completion, by position in the command, without a terminal.
@Suite struct CompleterTests {
    struct Names: CompletionNames {
        func listNames() -> [String] { ["Corner shop", "Corner store", "Groceries"] }
        func itemNames(inList list: String) -> [String] { list == "Groceries" ? ["Bread", "Milk"] : [] }
        func recordTypes() -> [String] { ["Items", "Lists"] }
        func fieldNames(of recordType: String) -> [String] { recordType == "Items" ? ["name", "list", "number"] : ["name"] }
    }

    let completer = Completer(names: Names())

    @Test(arguments: [
        (
            "", "",
            [
                "lists", "list", "items", "item", "count", "import", "export", "schema", "transactions", "transaction", "explain", "watch", "source", "help",
                "quit",
            ]
        ),
        ("li", "li", ["lists", "list"]),
        ("list d", "d", ["delete"]),
        ("items Gro", "Gro", ["Groceries"]),
        ("items Cor", "Cor", ["'Corner shop'", "'Corner store'"]),
        ("items 'Corner sh", "'Corner sh", ["'Corner shop'"]),
        ("items \"Corner st", "\"Corner st", ["\"Corner store\""]),
        ("item delete Groceries M", "M", ["Milk"]),
        ("item show Groceries B", "B", ["Bread"]),
        ("help gr", "gr", ["graphql"]),
        ("item set Groceries Milk nu", "nu", ["number="]),
        ("item add Groceries Eggs ", "", ["name=", "list=", "number="]),
        ("items Groceries --", "--", ["--sort", "--where"]),
        ("items Groceries --sort n", "n", ["name", "number"]),
        ("schema add-field It", "It", ["Items"]),
        ("schema add-field Items count IN", "IN", ["INT64"]),
        ("schema add-field Items count INT64 Q", "Q", ["QUERYABLE"]),
        ("help sch", "sch", ["schema"]),
        ("help item ", "", ["add", "set", "show", "delete"]),
        ("{ Lists { na", "na", ["name"]),
        ("{ It", "It", ["Items"]),
        ("explain { Items { num", "num", ["number"]),
    ])
    func completesByPosition(_ line: String, _ typed: String, _ candidates: [String]) {
        #expect(completer.complete(line) == Completion(typed: typed, candidates: candidates))
    }

    @Test func completesFieldsOnAContinuationLine() {
        #expect(completer.complete("  numb", inGraphQL: true) == Completion(typed: "numb", candidates: ["number"]))
    }

    @Test func candidatesShareTheirCommonPrefix() {
        #expect(Completion(typed: "Cor", candidates: ["'Corner shop'", "'Corner store'"]).commonPrefix == "'Corner s")
    }
}
