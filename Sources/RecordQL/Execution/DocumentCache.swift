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

    private let outcomes: BoundedCache<Key, Outcome>
    private let parses = Atomic<Int>(0)

    /// A valid document, or the failure of one that is not, with its document when it parsed
    /// (a validation failure still tells the kind of the operation asked for).
    private struct Outcome: Sendable {
        var document: Document?
        var failure: GraphQLFailure?
    }

    init(capacity: Int = 512) {
        outcomes = BoundedCache(capacity: capacity)
    }

    /// How many times a text has been parsed (tests check that a repeated request is not).
    var parseCount: Int { parses.load(ordering: .relaxed) }

    /// The validated document of `text` for `context`'s schema, or the failure that says why
    /// it is not valid (with the kind of the operation `operationName` chooses, when it parsed).
    func document(_ text: String, for context: SchemaContext, operationName: String? = nil) throws(GraphQLFailure) -> Document {
        // A text past the length bound is neither looked up nor kept: the cache holds only
        // texts that can be documents.
        try DocumentLimits.checkLength(text)
        let key = Key(text: ExactText(text), context: context.identity)
        var outcome: Outcome
        if let cached = outcomes.value(for: key) {
            outcome = cached
        } else {
            outcome = Self.parseAndValidate(text, context: context)
            parses.add(1, ordering: .relaxed)
            outcomes.store(outcome, for: key)
        }
        if let failure = outcome.failure {
            throw failure.of(outcome.document.flatMap { PreparedRequest.kind(of: operationName, in: $0) })
        }
        guard let document = outcome.document else { throw GraphQLFailure(.internalError, "the document was lost") }
        return document
    }

    private static func parseAndValidate(_ text: String, context: SchemaContext) -> Outcome {
        let document: Document
        do throws(GraphQLFailure) {
            try DocumentLimits.check(text)
        } catch {
            return Outcome(failure: error)
        }
        do {
            document = try parse(source: Source(body: text, name: "GraphQL request"))
        } catch let error as GraphQLError {
            return Outcome(failure: GraphQLFailure(syntaxError: error))
        } catch {
            return Outcome(failure: GraphQLFailure(.invalidArguments, "the document cannot be parsed: \(error)", stage: .parse))
        }
        if let failure = OperationUniqueness.failure(in: document) {
            return Outcome(document: document, failure: failure)
        }
        let errors = validate(schema: context.graphQLSchema, ast: document, rules: ValidationRules.rules(for: text, document: document, catalog: context.arguments))
        guard errors.isEmpty else {
            return Outcome(document: document, failure: GraphQLFailure(validationErrors: errors, context: context))
        }
        return Outcome(document: document)
    }
}
