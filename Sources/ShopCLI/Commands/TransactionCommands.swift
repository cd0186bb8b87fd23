import ArgumentParser
import RecordKit

/// `transactions`
struct TransactionsCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions",
        abstract: "Show the stored transactions (idempotent writes), oldest first.",
        discussion: "Example:\n  transactions"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let stored = try session.database.transactions()
        if stored.isEmpty {
            session.console.print("no stored transactions")
        } else {
            let rows = stored.map { [$0.id, Timestamp.format($0.createdAt)] }
            session.console.print(TextTable(header: ["id", "created at"], rows: rows).rendered)
        }
        return .proceed
    }
}

/// `transaction show | delete`
struct TransactionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transaction",
        abstract: "Show or delete a stored transaction.",
        subcommands: [TransactionShowCommand.self, TransactionDeleteCommand.self]
    )
}

struct TransactionShowCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a stored transaction's request and result.",
        discussion: "Example:\n  transaction show order-42"
    )

    @Argument(help: "The transaction ID.")
    var id: String

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let stored = try session.database.transaction(id: id)
        session.console.print("""
            id:         \(stored.id)
            created at: \(Timestamp.format(stored.createdAt))
            request:    \(stored.request)
            result:     \(stored.result)
            """)
        return .proceed
    }
}

struct TransactionDeleteCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Forget a stored transaction, so its ID runs anew.",
        discussion: "Example:\n  transaction delete order-42"
    )

    @Argument(help: "The transaction ID.")
    var id: String

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        try session.database.deleteTransaction(id: id)
        session.console.print("deleted transaction \(id)")
        return .proceed
    }
}
