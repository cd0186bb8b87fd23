import ArgumentParser
import RecordKit
import RecordQL

/// `transactions`
struct TransactionsCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions",
        abstract: "Show the stored transactions (idempotent writes), oldest first.",
        discussion: "Example:\n  transactions"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let rows = try await session.backend.transactions().map { stored in
            JSONValue.members(["id": .string(stored.id), "createdAt": .string(Timestamp.format(stored.createdAt))])
        }
        session.show(.rows(rows, columns: [.init("id"), .init("createdAt", header: "created at")], whenEmpty: "no stored transactions"))
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
        let stored = try await session.backend.transaction(id: id)
        session.show(
            .record(
                .members([
                    "id": .string(stored.id),
                    "createdAt": .string(Timestamp.format(stored.createdAt)),
                    "request": stored.request,
                    "result": stored.result,
                ])))
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
        try await session.backend.deleteTransaction(id: id)
        session.show(.message("deleted transaction \(id)", ["transaction": .string(id)]))
        return .proceed
    }
}
