import ArgumentParser
import RecordKit

/// Turns the words of one command line into a ``ShopCommand`` with swift-argument-parser (the
/// command named by the leading words parses the rest with `parseAsRoot(_:)`, or reuses its
/// parse of words as many, see ``PositionalCommand``), and its failures into `invalidArguments`
/// errors that say what was wrong, suggest the command meant ("did you mean") and show the
/// usage.
enum CommandParser {
    /// The command `words` spell; `-h` or `--help` anywhere asks for the command's help.
    static func parse(_ words: [String]) throws(RecordError) -> any ShopCommand {
        if let help = words.firstIndex(where: { $0 == "-h" || $0 == "--help" }) {
            return try parse(Array(words[..<help]), as: HelpCommand.self)
        }
        let path = try resolve(words)
        let parsed: any ParsableCommand
        do {
            // The words naming the command are resolved already: only its own arguments are
            // parsed, with its own definition (much cheaper than parsing the whole command tree
            // per script line).
            if let leaf = path.commands.last {
                parsed = try parseArguments(Array(words[path.length...]), as: leaf)
            } else {
                parsed = try ShopCommands.parseAsRoot(words)
            }
        } catch {
            throw failure(error, command: path.commands.last)
        }
        guard let command = parsed as? any ShopCommand else {
            let names = subcommandNames(of: type(of: parsed))
            throw RecordError(
                .invalidArguments,
                "\(words.joined(separator: " ")) needs one of: \(names.joined(separator: ", ")); see: help \(words.joined(separator: " "))"
            )
        }
        return command
    }

    /// `arguments` parsed by `command` as if it were the root command.
    private static func parseArguments(_ arguments: [String], as command: any ParsableCommand.Type) throws -> any ParsableCommand {
        if let positional = command as? any PositionalCommand.Type {
            return try positional.parseReusingTemplate(arguments)
        }
        return try command.parseAsRoot(arguments)
    }

    /// `words` parsed as arguments of `command` alone (`explain items …`).
    static func parse<Command: ParsableCommand>(_ words: [String], as command: Command.Type) throws(RecordError) -> Command {
        do {
            return try Command.parse(words)
        } catch {
            throw failure(error, command: command)
        }
    }

    /// The command types the leading `words` name; an unknown command or subcommand fails with
    /// the closest known name.
    static func resolve(_ words: [String]) throws(RecordError) -> (commands: [any ParsableCommand.Type], length: Int) {
        let path = ShopCommands.path(for: words)
        guard let last = path.commands.last else {
            let word = words.first ?? ""
            let names = ShopCommands.configuration.subcommands.map(ShopCommands.name(of:))
            throw RecordError(.invalidArguments, "unknown command '\(word)'\(suggestion(for: word, among: names)); type help for the list of commands")
        }
        let children = subcommandNames(of: last)
        if !children.isEmpty, path.length < words.count {
            let word = words[path.length]
            let prefix = words[..<path.length].joined(separator: " ")
            throw RecordError(
                .invalidArguments,
                "unknown command '\(prefix) \(word)'\(suggestion(for: word, among: children)); \(prefix) takes: \(children.joined(separator: ", "))"
            )
        }
        return path
    }

    private static func subcommandNames(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.map(ShopCommands.name(of:))
    }

    private static func failure(_ error: any Error, command: (any ParsableCommand.Type)?) -> RecordError {
        if let error = error as? RecordError { return error }
        let message = ShopCommands.message(for: error)
        guard let command else { return RecordError(.invalidArguments, message) }
        return RecordError(.invalidArguments, "\(message) (usage: \(HelpCommand.usage(for: command)))")
    }

    /// ` (did you mean 'x'?)` for the name closest to `word`, or nothing when none is close.
    /// A name is close when at most `maximumDistance` edits away (by default 2, more for long
    /// words) or when it starts with `word`.
    static func suggestion(for word: String, among names: [String], maximumDistance: Int? = nil) -> String {
        let scored = names.map { (name: $0, distance: editDistance(word.lowercased(), $0.lowercased())) }
        guard !word.isEmpty, let best = scored.min(by: { $0.distance < $1.distance }),
            best.distance <= (maximumDistance ?? max(2, word.count / 3)) || best.name.lowercased().hasPrefix(word.lowercased())
        else { return "" }
        return " (did you mean '\(best.name)'?)"
    }

    /// Levenshtein distance between `a` and `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
