import ArgumentParser

/// Tab completion of a prompt line: command words, list and item names (quoted when they hold
/// spaces), record types, field names, field types and index flags by position in the command;
/// record types and field names inside GraphQL.
struct Completer {
    let names: any CompletionNames

    /// The completion of the last word of `text` (the line up to the cursor); `inGraphQL` when
    /// the line continues a GraphQL document.
    func complete(_ text: String, inGraphQL: Bool = false) -> Completion {
        if inGraphQL || LineAssembler.startsGraphQL(text.trimmingWhitespace) || isExplainingGraphQL(text) {
            return completeGraphQL(text)
        }
        let scan = LineTokenizer.scan(text)
        var words = scan.words
        let current = scan.endsBetweenWords ? LineTokenizer.Word(text: "", start: text.unicodeScalars.count) : words.removeLast()
        let typed = String(String.UnicodeScalarView(text.unicodeScalars.dropFirst(current.start)))
        let quote = current.openQuote ?? typed.first.flatMap { $0 == "'" || $0 == "\"" ? $0 : nil }
        let candidates = options(after: words.map(\.text), current: current.text)
            .filter { $0.lowercased().hasPrefix(current.text.lowercased()) }
            .map { LineTokenizer.quote($0, preferring: quote) }
        return Completion(typed: typed, candidates: candidates)
    }

    /// What may follow the words `done`.
    private func options(after done: [String], current: String) -> [String] {
        guard let command = done.first else { return Self.commandNames }
        let arguments = Array(done.dropFirst())
        switch (command, arguments.first) {
        case ("help", _):
            return arguments.isEmpty ? Self.commandNames + [GraphQLHelp.topic] : arguments.count == 1 ? Self.subcommandNames(of: arguments[0]) : []
        case ("explain", nil):
            return ["items"]
        case ("explain", "items"):
            return itemsOptions(after: Array(arguments.dropFirst()), current: current)
        case ("items", _):
            return itemsOptions(after: arguments, current: current)
        case (_, nil):
            return Self.subcommandNames(of: command)
        case ("list", "rename"), ("list", "delete"):
            return arguments.count == 1 ? names.listNames() : []
        case ("item", let subcommand?):
            return itemOptions(subcommand, arguments: Array(arguments.dropFirst()), current: current)
        case ("schema", "add-field"):
            return schemaFieldOptions(after: Array(arguments.dropFirst()))
        default:
            return []
        }
    }

    private func itemsOptions(after arguments: [String], current: String) -> [String] {
        if arguments.isEmpty { return current.hasPrefix("-") ? ["--sort", "--where"] : names.listNames() }
        if arguments.last == "--sort" { return ["name"] + names.fieldNames(of: ShoppingStore.itemType).filter { $0 != "name" } }
        if arguments.last == "--where" { return [] }
        if arguments.dropLast().last == "--sort" { return ["desc", "asc", "--where"] }
        return ["--sort", "--where"]
    }

    private func itemOptions(_ subcommand: String, arguments: [String], current: String) -> [String] {
        switch (subcommand, arguments.count) {
        case (_, 0): return names.listNames()
        case ("set", 1), ("show", 1), ("delete", 1): return names.itemNames(inList: arguments[0])
        case ("add", 2...), ("set", 2...):
            return current.contains("=") ? [] : names.fieldNames(of: ShoppingStore.itemType).map { $0 + "=" }
        default: return []
        }
    }

    private func schemaFieldOptions(after arguments: [String]) -> [String] {
        switch arguments.count {
        case 0: return names.recordTypes()
        case 2: return Self.fieldTypes + names.recordTypes().map { "REFERENCE(\($0))" }
        case 3...: return ["QUERYABLE", "SORTABLE", "SEARCHABLE"].filter { !arguments.contains($0) }
        default: return []
        }
    }

    /// The identifier before the cursor, completed with record type and field names.
    private func completeGraphQL(_ text: String) -> Completion {
        let typed = String(text.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
        let types = names.recordTypes()
        var words = types + ["recordName", "recordType", "createdAt", "modifiedAt", "changeTag"]
        for type in types { words += names.fieldNames(of: type) }
        var seen: Set<String> = []
        let candidates = words.filter { $0.hasPrefix(typed) && seen.insert($0).inserted }
        return Completion(typed: typed, candidates: candidates)
    }

    /// Whether `text` is `explain` or `watch` followed by a GraphQL document.
    private func isExplainingGraphQL(_ text: String) -> Bool {
        let trimmed = text.trimmingWhitespace
        let word = LineAssembler.firstWord(of: trimmed)
        guard word == "explain" || word == "watch" else { return false }
        let rest = String(trimmed.dropFirst(word.count)).trimmingWhitespace
        return LineAssembler.startsGraphQL(rest) || (word == "watch" && LineAssembler.firstWord(of: rest) == "subscription")
    }

    static let fieldTypes = ["STRING", "INT64", "DOUBLE", "NUMBER", "TIMESTAMP", "BYTES", "REFERENCE", "ASSET", "LOCATION", "LIST<STRING>", "LIST<INT64>"]

    static var commandNames: [String] {
        ShopCommands.configuration.subcommands.map(ShopCommands.name(of:))
    }

    static func subcommandNames(of command: String) -> [String] {
        let path = ShopCommands.path(for: [command])
        return path.commands.last?.configuration.subcommands.map(ShopCommands.name(of:)) ?? []
    }
}
