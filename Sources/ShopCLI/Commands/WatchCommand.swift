import ArgumentParser
import RecordKit
import RecordQL

/// `watch QUERY`: a live query, printed again each time a commit changes its result.
struct WatchCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a query's result, then again each time a change to the data changes it, until Ctrl-C.",
        discussion: """
            QUERY is a GraphQL query with one field (it may span lines until its braces balance), or
            a subscription. Changes made by any program on the same database, or through the same
            server, are shown as they are committed; Ctrl-C ends the watch and returns to the prompt.
            Example:
              watch { Items(where: {list: {eq: "L1"}}, sort: [{name: ASC}]) { name number } }
            """
    )

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("A GraphQL query, as in: { Items { name } }", valueName: "query"))
    var query: [String] = []

    /// Reached only when the line did not hold a GraphQL document after `watch` (the line
    /// assembler hands those to ``watch(_:in:)``).
    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let given = query.first.map { " '\($0)'" } ?? " nothing"
        throw RecordError(
            .invalidArguments, "watch takes a GraphQL query, not\(given); as in: watch { Items(sort: [{name: ASC}]) { name } }")
    }

    /// Prints the live results of the GraphQL `document` (a query is watched as the subscription
    /// of the same fields) until Ctrl-C; a server that ends the stream (stopping) is an error.
    static func watch(_ document: String, in session: ShopSession) async throws(RecordError) {
        let results = try await session.backend.watch(subscription(of: document))
        let interruption = session.interruption
        // Ctrl-C sets a flag rather than cancelling a task: the results are read until it is set.
        let (events, continuation) = AsyncStream<Result<GraphQLResponse, any Error>>.makeStream()
        let reader = Task {
            do {
                for try await response in results { continuation.yield(.success(response)) }
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
        let stopper = Task {
            while !interruption.isRequested, (try? await Task.sleep(for: .milliseconds(50))) != nil {}
            continuation.finish()
        }
        defer {
            reader.cancel()
            stopper.cancel()
        }
        var isFirst = true
        for await event in events {
            // Ctrl-C may also have interrupted the statement of a re-run: that is the stop, not a failure.
            if interruption.isRequested { break }
            let response: GraphQLResponse
            switch event {
            case .success(let given): response = given
            case .failure(let error): throw error as? RecordError ?? RecordError(.internalError, "the watch stopped: \(error)")
            }
            if session.printsJSON {
                session.console.print(response.json)
            } else if response.isSuccess {
                session.console.print((isFirst ? "" : "\n") + ResponseTable.render(response, style: session.style))
            }
            isFirst = false
            session.console.flush()
            // Output that cannot be written ends the watch; the runner says why (``LostOutput``).
            if session.console.lostOutput?.errorNumber != nil { break }
            if let failure = GraphQLOutput.failure(of: response) { throw failure }
        }
    }

    /// `document` as a subscription: `{ … }` and `query …` become `subscription { … }` and
    /// `subscription …`.
    static func subscription(of document: String) -> String {
        if document.hasPrefix("{") { return "subscription " + document }
        if LineAssembler.firstWord(of: document) == "query" { return "subscription" + document.dropFirst("query".count) }
        return document
    }
}
