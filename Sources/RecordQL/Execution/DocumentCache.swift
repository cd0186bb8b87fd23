import GraphQL
import RecordKit
import Synchronization

/// Parsed and validated documents by query text and schema context, so a query text seen
/// before is neither parsed nor validated again. Invalid documents are kept with their errors.
/// Holds at most `capacity` entries (``BoundedCache``).
final class DocumentCache: Sendable {
    private struct Key: Hashable {
        /// By bytes (``ExactText``): texts whose string literals are canonically equivalent
        /// but differ in bytes parse to different values.
        var text: ExactText
        /// The context validated against (``SchemaContext/identity``): validating records the
        /// argument definitions the plan reads in that context.
        var context: Int
    }

    private let outcomes: BoundedCache<Key, Result<Document, GraphQLFailure>>
    private let parses = Atomic<Int>(0)

    init(capacity: Int = 512) {
        outcomes = BoundedCache(capacity: capacity)
    }

    /// How many times a text has been parsed (tests check that a repeated request is not).
    var parseCount: Int { parses.load(ordering: .relaxed) }

    /// The validated document of `text` for `context`'s schema, or the failure that says why
    /// it is not valid.
    func document(_ text: String, for context: SchemaContext) throws(GraphQLFailure) -> Document {
        // A text past the length bound is neither looked up nor kept: the cache holds only
        // texts that can be documents.
        try DocumentLimits.checkLength(text)
        let key = Key(text: ExactText(text), context: context.identity)
        if let cached = outcomes.value(for: key) {
            return try cached.get()
        }
        let outcome = Self.parseAndValidate(text, context: context)
        parses.add(1, ordering: .relaxed)
        outcomes.store(outcome, for: key)
        return try outcome.get()
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
