import ArgumentParser
import RecordKit

/// `items LIST [--sort FIELD [desc]] [--where PREDICATE]`
struct ItemsCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Show the items of a list with their number (1 when unset).",
        discussion: """
            Sorted by name unless --sort is given. --where takes an NSPredicate-format condition, \
            ANDed with the list's own.
            Example:
              items Groceries --sort number desc --where 'number >= 2'
            """
    )

    @Argument(help: "The list's name.")
    var list: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Sort by a field, descending with desc.", valueName: "field [desc]"))
    var sort: [String] = []

    @Option(name: .customLong("where"), help: ArgumentHelp("Only the items matching a predicate.", valueName: "predicate"))
    var condition: String?

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let items = try session.store.items(in: list, matching: try predicate(), sort: try sortDescriptors())
        if items.isEmpty {
            session.console.print("no items in \(LineTokenizer.quote(list))")
        } else {
            let rows = items.map { [$0.name, $0["number"]?.description ?? "1"] }
            session.console.print(TextTable(header: ["item", "number"], rows: rows, rightAligned: [1]).rendered)
        }
        return .proceed
    }

    /// The `--where` predicate, `.all` without one.
    func predicate() throws(RecordError) -> Predicate {
        try condition.map(PredicateParser.parse) ?? .all
    }

    /// The `--sort FIELD [desc|asc]` key, none without it.
    func sortDescriptors() throws(RecordError) -> [SortDescriptor] {
        guard let field = sort.first else { return [] }
        let direction = sort.dropFirst().first?.lowercased()
        guard sort.count <= 2, direction == nil || direction == "desc" || direction == "asc" else {
            throw RecordError(.invalidArguments, "--sort takes a field and optionally desc or asc, as in: --sort number desc")
        }
        return [SortDescriptor(field, ascending: direction != "desc")]
    }
}
