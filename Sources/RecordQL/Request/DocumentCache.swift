import GraphQL
import RecordKit
import Synchronization

/// Parsed and validated documents by query text and schema context, so a query text seen
/// before is neither parsed nor validated again. Invalid documents are kept with their errors.
/// A text never seen before is parsed, and validated only when no document of the same
/// ``DocumentShape`` (the same text but for its literal values) has been found valid against the
/// context: a batch of creates carrying new values each time is validated once. Each cache
/// holds at most `capacity` entries (``BoundedCache``).
final class DocumentCache: Sendable {
    private struct Key: Hashable {
        /// By bytes (``ExactText``): texts whose string literals are canonically equivalent
        /// but differ in bytes parse to different values.
        var text: ExactText
        /// The context validated against (``SchemaContext/identity``): validating records the
        /// argument definitions the plan reads in that context.
        var context: Int
    }

    private struct ShapeKey: Hashable {
        var shape: DocumentShape
        var context: Int
    }

    /// A valid document, or the failure of one that is not, with its document when it parsed
    /// (a validation failure still tells the kind of the operation asked for).
    fileprivate struct Outcome: Sendable {
        var document: Document?
        var failure: GraphQLFailure?
    }

    private let outcomes: BoundedCache<Key, Outcome>
    /// The shapes of documents found valid; a shape found invalid is not kept, since another
    /// document of that shape may be valid (the invalid one may have had a literal its type
    /// refuses).
    private let validShapes: BoundedCache<ShapeKey, Bool>
    private let parses = Atomic<Int>(0)
    private let validations = Atomic<Int>(0)

    init(capacity: Int = 512) {
        outcomes = BoundedCache(capacity: capacity)
        validShapes = BoundedCache(capacity: capacity)
    }

    /// How many times a text has been parsed (tests check that a repeated request is not).
    var parseCount: Int { parses.load(ordering: .relaxed) }
    /// How many times a document has been validated (tests check that documents of one shape
    /// are validated once).
    var validationCount: Int { validations.load(ordering: .relaxed) }

    /// The validated document of `text` for `context`'s schema, or the failure that says why
    /// it is not valid (with the kind of the operation `operationName` chooses, when it parsed).
    func document(_ text: String, for context: SchemaContext, operationName: String? = nil) throws(GraphQLFailure) -> Document {
        // A text past the length bound is neither looked up nor kept: the cache holds only
        // texts that can be documents.
        try DocumentLimits.checkLength(text)
        let key = Key(text: ExactText(text), context: context.identity)
        if let cached = outcomes.value(for: key) {
            return try cached.get(operationName: operationName)
        }
        parses.add(1, ordering: .relaxed)
        let document: Document
        switch Self.parse(text) {
        case .success(let parsed):
            document = parsed
        case .failure(let failure):
            outcomes.store(Outcome(failure: failure), for: key)
            throw failure
        }
        let shape = DocumentShape(of: document).map { ShapeKey(shape: $0, context: context.identity) }
        if let shape, validShapes.value(for: shape) != nil {
            // Not kept by text: a batch with new values each time would fill the cache with
            // texts never asked for again.
            return document
        }
        validations.add(1, ordering: .relaxed)
        let outcome = Outcome(document: document, failure: Self.validate(document, text: text, context: context))
        outcomes.store(outcome, for: key)
        if let shape, outcome.failure == nil { validShapes.store(true, for: shape) }
        return try outcome.get(operationName: operationName)
    }

    private static func parse(_ text: String) -> Result<Document, GraphQLFailure> {
        do throws(GraphQLFailure) {
            try DocumentLimits.check(text)
        } catch {
            return .failure(error)
        }
        do {
            return .success(try GraphQL.parse(source: Source(body: text, name: "GraphQL request")))
        } catch let error as GraphQLError {
            return .failure(GraphQLFailure(syntaxError: error))
        } catch {
            return .failure(GraphQLFailure(.invalidArguments, "the document cannot be parsed: \(error)", stage: .parse))
        }
    }

    /// Why `document` is not valid against `context`, or `nil` when it is.
    private static func validate(_ document: Document, text: String, context: SchemaContext) -> GraphQLFailure? {
        if let failure = OperationUniqueness.failure(in: document) {
            return failure
        }
        let errors = GraphQL.validate(
            schema: context.graphQLSchema, ast: document, rules: ValidationRules.rules(for: text, document: document, catalog: context.arguments))
        return errors.isEmpty ? nil : GraphQLFailure(validationErrors: errors, context: context)
    }
}

extension DocumentCache.Outcome {
    /// The valid document, or the failure, marked with the kind of the operation `operationName`
    /// chooses when the document parsed.
    fileprivate func get(operationName: String?) throws(GraphQLFailure) -> Document {
        if let failure {
            throw failure.of(document.flatMap { PreparedRequest.kind(of: operationName, in: $0) })
        }
        guard let document else { throw GraphQLFailure(.internalError, "the document was lost", stage: .execution) }
        return document
    }
}
