import GraphQL
import RecordKit
import Synchronization

/// Parsed and validated documents by query text and schema generation, so a query text seen
/// before is neither parsed nor validated again. Invalid documents are kept with their errors.
/// Holds at most `capacity` entries: when full, the least recently used half is dropped.
final class DocumentCache: Sendable {
    private struct Key: Hashable {
        var text: String
        var generation: Int
    }

    private struct Entry {
        var outcome: Result<Document, GraphQLFailure>
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var parseCount = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 512) {
        self.capacity = max(1, capacity)
    }

    /// How many times a text has been parsed (tests check that a repeated request is not).
    var parseCount: Int { state.withLock { $0.parseCount } }

    /// The validated document of `text` for `context`'s schema, or the failure that says why
    /// it is not valid.
    func document(_ text: String, for context: SchemaContext) throws(GraphQLFailure) -> Document {
        let key = Key(text: text, generation: context.generation)
        let cached = state.withLock { state -> Result<Document, GraphQLFailure>? in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.outcome
        }
        let outcome = cached ?? store(key, Self.parseAndValidate(text, context: context))
        return try outcome.get()
    }

    private func store(_ key: Key, _ outcome: Result<Document, GraphQLFailure>) -> Result<Document, GraphQLFailure> {
        state.withLock { state in
            state.parseCount += 1
            state.clock += 1
            if state.entries.count >= capacity, state.entries[key] == nil {
                // Drop the least recently used half at once: one pass per capacity/2 inserts.
                let uses = state.entries.values.map(\.lastUse).sorted()
                let threshold = uses[uses.count / 2]
                state.entries = state.entries.filter { $0.value.lastUse > threshold }
            }
            state.entries[key] = Entry(outcome: outcome, lastUse: state.clock)
        }
        return outcome
    }

    private static func parseAndValidate(_ text: String, context: SchemaContext) -> Result<Document, GraphQLFailure> {
        let document: Document
        do throws(GraphQLFailure) {
            try DocumentLimits.check(text)
        } catch {
            return .failure(error)
        }
        do {
            document = try parse(source: Source(body: text, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return .failure(GraphQLFailure(syntaxError: error))
        } catch {
            return .failure(GraphQLFailure(.invalidArguments, "the document cannot be parsed: \(error)"))
        }
        if let failure = OperationUniqueness.failure(in: document) {
            return .failure(failure)
        }
        let errors = validate(schema: context.graphQLSchema, ast: document, rules: ValidationRules.rules(for: text, document: document, catalog: context.arguments))
        guard errors.isEmpty else {
            return .failure(GraphQLFailure(validationErrors: errors, context: context))
        }
        return .success(document)
    }
}
