import ArgumentParser
import RecordKit

/// `items LIST [--sort FIELD [desc]] [--where PREDICATE]`
struct ItemsCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Show the items of a list with every field (number 1 when unset).",
        discussion: """
            Sorted by name unless --sort is given. --where takes an NSPredicate-format condition, \
            ANDed with the list's own. A reference shows the name of the record it points at. \
            With --json: an array of the items, each with its system fields.
            Example:
              items Groceries --sort number desc --where 'number >= 2'
              items Groceries --sort number desc --sort name
            """
    )

    @Argument(help: "The list's name.")
    var list: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Sort by fields in turn, each descending with desc.", valueName: "field [desc]"))
    var sort: [String] = []

    @Option(name: .customLong("where"), help: ArgumentHelp("Only the items matching a predicate.", valueName: "predicate"))
    var condition: String?

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let items = try await session.store.itemListing(in: list, matching: try predicate(), sort: try sortDescriptors())
        session.show(.records(items, columns: Self.columns(for: items.fields), whenEmpty: "no items in \(LineTokenizer.quote(list))"))
        return .proceed
    }

    /// One column per field, the name first (headed `item`); an unset `number` shows as 1, the
    /// quantity the shopping app has always assumed.
    static func columns(for fields: [FieldDefinition]) -> [CommandOutput.Column] {
        [CommandOutput.Column("name", header: "item")]
            + fields.filter { $0.name != "name" }.map { field in
                CommandOutput.Column(field.name, whenNull: field.name == "number" ? "1" : "")
            }
    }

    /// The `--where` predicate, `.all` without one.
    func predicate() throws(RecordError) -> Predicate {
        try condition.map(PredicateParser.parse) ?? .all
    }

    /// The `--sort FIELD [desc|asc] …` keys in order (the option repeats, or takes several
    /// fields), none without it.
    func sortDescriptors() throws(RecordError) -> [SortDescriptor] {
        var keys: [(field: String, direction: String?)] = []
        for word in sort.flatMap({ $0.split(separator: " ").map(String.init) }) {
            let direction = word.lowercased()
            guard direction == "desc" || direction == "asc" else {
                keys.append((word, nil))
                continue
            }
            guard let last = keys.last, last.direction == nil else {
                throw RecordError(.invalidArguments, "--sort takes fields, each optionally followed by desc or asc, as in: --sort number desc name")
            }
            keys[keys.count - 1].direction = direction
        }
        return keys.map { SortDescriptor($0.field, ascending: $0.direction != "desc") }
    }
}
