import RecordKit
import RecordQL

/// What commands act on: one open database, the query-language engine (built on first use, so
/// a command that needs no GraphQL never pays for its schema), and how to print.
///
/// Used by one task at a time: the REPL loop or the script runner that owns it.
public final class ShopSession {
    public let database: RecordDatabase
    let console: Console
    /// Print GraphQL responses as their one-line JSON instead of tables.
    let printsJSON: Bool
    /// Report every failing command and go on, instead of stopping at the first.
    let keepsGoing: Bool
    /// How deep `source` commands are nested, to stop a script that sources itself.
    var sourceDepth = 0
    private var engine: RecordQLEngine?

    public init(database: RecordDatabase, console: Console = .standard, printsJSON: Bool = false, keepsGoing: Bool = false) {
        self.database = database
        self.console = console
        self.printsJSON = printsJSON
        self.keepsGoing = keepsGoing
    }

    /// The GraphQL engine over ``database``, made when first asked for.
    var queryEngine: RecordQLEngine {
        if let engine { return engine }
        let made = RecordQLEngine(database: database)
        engine = made
        return made
    }

    /// Whether ``queryEngine`` has been made (start-up and plain commands leave it unmade).
    var hasQueryEngine: Bool { engine != nil }

    /// The shopping-list operations over ``database``.
    var store: ShoppingStore { ShoppingStore(database: database) }
}
