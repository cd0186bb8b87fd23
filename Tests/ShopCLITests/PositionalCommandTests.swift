import ArgumentParser
import Testing

@testable import ShopCLI

/// Commands parsed by reusing a template (``PositionalCommand``) come out exactly as
/// swift-argument-parser makes them from the words themselves: the same values, or the same
/// error.
@Suite struct PositionalCommandTests {
    static let commands = ShopCommands.leaves.compactMap { $0 as? any PositionalCommand.Type }

    /// Words that a template's stand-ins must not be confused with, and some that the parser
    /// must see for itself (options, `--`, help flags).
    static let wordLists: [[String]] = [
        ["Groceries", "Oat milk", "number=2", "note=x y", "list=Other"],
        ["", " ", "=", "''", "help"],
        ["Café", "naïve", "日本語", "e\u{301}", "🛒"],
        ["\u{1}1", "\u{1}0", "\u{1}", "\u{1}x", "0"],
        ["L", "-x", "--", "-1", "--help"],
        ["--", "L", "I"],
    ]

    @Test func theScriptCommandsAreParsedFromTemplates() {
        let reusing = Set(Self.commands.map { ObjectIdentifier($0) })
        let expected: [any ParsableCommand.Type] = [
            ListAddCommand.self, ListRenameCommand.self, ListDeleteCommand.self,
            ItemAddCommand.self, ItemSetCommand.self, ItemShowCommand.self, ItemDeleteCommand.self,
        ]
        #expect(reusing == Set(expected.map { ObjectIdentifier($0) }))
    }

    @Test(arguments: wordLists)
    func aTemplateGivesWhatTheParserGives(_ words: [String]) {
        for command in Self.commands {
            for count in 0...words.count {
                let arguments = Array(words.prefix(count))
                let expected = Self.outcome { try command.parseAsRoot(arguments) }
                // Twice: the first call may make the template, the second reuses it.
                #expect(Self.outcome { try command.parseReusingTemplate(arguments) } == expected, "\(command) \(arguments)")
                #expect(Self.outcome { try command.parseReusingTemplate(arguments) } == expected, "\(command) \(arguments)")
            }
        }
    }

    @Test func eachLineGetsItsOwnWords() throws {
        let first = try #require(try ItemAddCommand.parseReusingTemplate(["Groceries", "Milk", "number=1"]) as? ItemAddCommand)
        let second = try #require(try ItemAddCommand.parseReusingTemplate(["Corner shop", "Eggs", "number=2"]) as? ItemAddCommand)
        #expect([first.item.list, first.item.name] + first.item.assignments == ["Groceries", "Milk", "number=1"])
        #expect([second.item.list, second.item.name] + second.item.assignments == ["Corner shop", "Eggs", "number=2"])
    }

    /// The command's values as text, or the parser's message for its error.
    private static func outcome(_ parse: () throws -> any ParsableCommand) -> String {
        do {
            return String(describing: try parse())
        } catch {
            return "error: " + ShopCommands.message(for: error)
        }
    }
}
