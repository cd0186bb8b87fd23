import ArgumentParser
import RecordKit
import RecordQL

/// `count TYPE [--where PREDICATE]`
struct CountCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count the records of a type, or those matching a predicate.",
        discussion: """
            --where takes an NSPredicate-format condition. With --json: {"recordType", "count"}.
            Example:
              count Items --where 'number >= 2'
            """
    )

    @Argument(help: "The record type, e.g. Items.")
    var type: String

    @Option(name: .customLong("where"), help: ArgumentHelp("Only the records matching a predicate.", valueName: "predicate"))
    var condition: String?

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let predicate = try condition.map(PredicateParser.parse) ?? .all
        let count = try await session.backend.count(matching: Query(try await TransferCommands.recordType(type, in: session).name, predicate: predicate))
        session.show(.text(String(count), json: .members(["recordType": .string(type), "count": .number(String(count))])))
        return .proceed
    }
}
