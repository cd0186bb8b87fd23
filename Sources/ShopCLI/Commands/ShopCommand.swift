import ArgumentParser
import RecordKit

/// A command of the `shop` language (the README lists them), typed at the prompt, given with `-e` or
/// read from a script: each is a swift-argument-parser command, so all three share one
/// definition and one help text.
protocol ShopCommand: ParsableCommand {
    /// Does the command's work in `session`; a failure throws and changes nothing.
    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome
}

/// What running a command asks of whoever runs it next.
enum CommandOutcome: Equatable {
    /// Go on with the next command.
    case proceed
    /// Stop everything (`quit`).
    case quit
    /// The command failed and has reported why itself (a `source`d script did).
    case failedAndReported
}

/// The root of the command tree; never run itself.
struct ShopCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "",
        abstract: "Shopping lists, their items and the schema behind them.",
        subcommands: [
            ListsCommand.self, ListCommand.self, ItemsCommand.self, ItemCommand.self,
            CountCommand.self, ImportCommand.self, ExportCommand.self,
            SchemaCommand.self, TransactionsCommand.self, TransactionCommand.self,
            ExplainCommand.self, WatchCommand.self, SourceCommand.self, HelpCommand.self, QuitCommand.self,
        ],
        helpNames: []
    )

    /// The name a command type is typed as.
    static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? ""
    }

    /// The command types reached by `words`, and how many words name them (`["list", "add",
    /// "x"]` is `list add`, 2 words).
    static func path(for words: [String]) -> (commands: [any ParsableCommand.Type], length: Int) {
        var commands: [any ParsableCommand.Type] = []
        var children = configuration.subcommands
        for word in words {
            guard let next = children.first(where: { name(of: $0) == word }) else { break }
            commands.append(next)
            children = next.configuration.subcommands
        }
        return (commands, commands.count)
    }

    /// Every command that does something, in the order `help` lists them.
    static var leaves: [any ParsableCommand.Type] {
        configuration.subcommands.flatMap { command -> [any ParsableCommand.Type] in
            let children = command.configuration.subcommands
            return command is any ShopCommand.Type ? [command] + children : children.isEmpty ? [command] : children
        }
    }
}
