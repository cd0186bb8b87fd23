import ArgumentParser
import Foundation
import RecordKit
import RecordQL

/// `help [COMMAND]`
struct HelpCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "List the commands, or show one command's usage and an example.",
        discussion: "help graphql describes the query language.\nExample:\n  help\n  help item add\n  help graphql"
    )

    /// The width help text is wrapped to, whatever the terminal (so it is stable).
    static let columns = 80

    /// Usages longer than this have their abstract on the next line of the summary.
    private static let summaryColumn = 42

    @Argument(help: "A command, e.g. items or item add.")
    var command: [String] = []

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let text = command.isEmpty ? Self.summary : command == [GraphQLHelp.topic] ? GraphQLHelp.page : try Self.usage(of: command)
        session.show(.text(text, json: .members(["help": .string(text)])))
        return .proceed
    }

    /// One line per command: its usage and what it does.
    static var summary: String {
        let rows = ShopCommands.leaves.map { command in
            (
                command is any ShopCommand.Type && !command.configuration.subcommands.isEmpty
                    ? ShopCommands.name(of: command) : usage(for: command), command.configuration.abstract
            )
        }
        let width = rows.map(\.0.count).filter { $0 <= summaryColumn }.max() ?? summaryColumn
        let lines = rows.map { usage, abstract in
            let gap = usage.count <= width ? String(repeating: " ", count: width - usage.count) : "\n" + String(repeating: " ", count: width + 2)
            return "  " + usage + gap + "  " + abstract
        }
        return """
            Commands (help COMMAND shows its usage and an example):
            \(lines.joined(separator: "\n"))

            GraphQL: a line starting with {, query or mutation is a GraphQL query or mutation; it may
            span lines until its braces balance (help graphql describes the language).
            Quote names with spaces: 'Corner shop'. # starts a comment line in scripts.
            """
    }

    /// The full help of the command `words` name.
    static func usage(of words: [String]) throws(RecordError) -> String {
        let path = try CommandParser.resolve(words)
        guard path.length == words.count, let command = path.commands.last else {
            throw RecordError(.invalidArguments, "'\(words.joined(separator: " "))' has no subcommand '\(words[path.length])'")
        }
        var text = ShopCommands.helpMessage(for: command, columns: columns).trimmingWhitespace
            .replacingOccurrences(of: "USAGE:  ", with: "USAGE: ")
            // The root command has no name, so the parser's pointer to subcommand help reads
            // "See ' help list <subcommand>'".
            .replacingOccurrences(of: "See ' help ", with: "See 'help ")
        if command is any ShopCommand.Type, !command.configuration.subcommands.isEmpty {
            // A group that runs itself (schema) takes its subcommand optionally.
            text = text.replacingOccurrences(of: "<subcommand>\n", with: "[<subcommand>]\n")
        }
        return text
    }

    /// The usage line of `command`, as typed at the prompt.
    static func usage(for command: any ParsableCommand.Type) -> String {
        ShopCommands.usageString(for: command).trimmingWhitespace
    }
}
