import RecordKit
import Testing

@testable import ShopCLI

/// `items LIST --sort …`: the option repeats (or takes several fields), each field optionally
/// followed by its direction, and the keys sort in that order.
@Suite struct ItemsSortTests {
    @Test(arguments: [
        (["--sort", "number", "desc", "--sort", "name"], [SortDescriptor("number", ascending: false), SortDescriptor("name")]),
        (["--sort", "number desc", "name", "asc"], [SortDescriptor("number", ascending: false), SortDescriptor("name")]),
        (["--sort", "name"], [SortDescriptor("name")]),
        ([], []),
    ])
    func sortKeysComeInOrderEachWithItsDirection(words: [String], keys: [SortDescriptor]) throws {
        let command = try ItemsCommand.parse(["Groceries"] + words)
        #expect(try command.sortDescriptors() == keys)
    }

    @Test(arguments: [["--sort", "desc"], ["--sort", "name", "desc", "asc"]])
    func aDirectionWithoutItsFieldIsRefused(words: [String]) throws {
        let command = try ItemsCommand.parse(["Groceries"] + words)
        #expect(throws: RecordError.self) { try command.sortDescriptors() }
    }
}
