import ArgumentParser
import RecordKit
import RecordQL

/// `explain QUERY`: a GraphQL query, or an `items` command.
struct ExplainCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show the plan the storage will use for a query.",
        discussion: """
            QUERY is a GraphQL query (it may span lines until its braces balance) or an items command.
            Example:
              explain { Items(predicate: "name BEGINSWITH 'M'") { name } }
              explain items Groceries --sort name
            """
    )

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("A GraphQL query, or: items LIST [options].", valueName: "query"))
    var query: [String] = []

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        guard let first = query.first else {
            throw RecordError(.invalidArguments, "explain needs a query, as in: explain items Groceries")
        }
        if first == ItemsCommand.configuration.commandName {
            let items = try CommandParser.parse(Array(query.dropFirst()), as: ItemsCommand.self)
            let query = try await session.store.itemsQuery(list: items.list, matching: try items.predicate(), sort: try items.sortDescriptors())
            let explanation = try await session.backend.explain(query)
            let text = "SQL: \(explanation.sql)\nplan:\n\(explanation.plan.map { "  " + $0 }.joined(separator: "\n"))"
            session.show(.text(text, json: .members(["sql": .string(explanation.sql), "plan": .array(explanation.plan.map(JSONValue.string))])))
            return .proceed
        }
        let document = query.joined(separator: " ")
        guard LineAssembler.startsGraphQL(document) else {
            throw RecordError(
                .invalidArguments,
                "explain cannot explain '\(first)'; it takes: items LIST [options], or a GraphQL query such as { Items { name } }"
            )
        }
        try await Self.explainGraphQL(document, in: session)
        return .proceed
    }

    /// Prints the query-language engine's plan for the GraphQL `document`.
    static func explainGraphQL(_ document: String, in session: ShopSession) async throws(RecordError) {
        let plan = try await session.backend.explain(document)
        session.show(.text(plan, json: .members(["plan": .string(plan)])))
    }
}

/// `quit`
struct QuitCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "quit",
        abstract: "Leave shop (Ctrl-D does too).",
        discussion: "Example:\n  quit"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        .quit
    }
}
