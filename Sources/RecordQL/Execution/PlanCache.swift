import GraphQL
import RecordKit

/// Query plans by request, with the SQL statements they compiled to, so a query asked again
/// exactly as before — the same text, operation and variables, against the same schema version —
/// is neither prepared, planned nor compiled again: its statements run as they are. A plan
/// depends on nothing else (the data is read when it runs), so a cached one is the plan the
/// request would get again. Mutations are planned every time.
///
/// Holds at most `capacity` plans (``BoundedCache``); requests whose variables are larger than
/// ``Key/maximumVariablesLength`` are not cached.
final class PlanCache: Sendable {
    /// What a plan is looked up by.
    struct Key: Hashable, Sendable {
        /// The longest exact text of a request's variables kept in a key.
        static let maximumVariablesLength = 1_024

        /// Texts are compared by their bytes (``ExactText``): canonically equivalent literals
        /// are different values to storage.
        var text: ExactText
        var generation: Int
        var operationName: ExactText?
        /// The variables as given, written exactly (``ExactMapText``).
        var variables: ExactText

        /// The key of a request, or `nil` when its variables are too large to keep.
        init?(text: String, generation: Int, operationName: String?, variables: [String: Map]) {
            guard let variables = ExactMapText.text(of: variables, maximumLength: Self.maximumVariablesLength) else { return nil }
            self.text = ExactText(text)
            self.generation = generation
            self.operationName = operationName.map(ExactText.init)
            self.variables = ExactText(variables)
        }
    }

    /// A planned query with the request it was planned from and the statements its root fields
    /// compiled to (``QueryExecution/run(_:statements:in:)``).
    struct Entry: Sendable {
        let request: PreparedRequest
        let plan: QueryPlan
        let statements: [CompiledJSONQuery?]
    }

    private let entries: BoundedCache<Key, Entry>

    init(capacity: Int = 512) {
        entries = BoundedCache(capacity: capacity)
    }

    /// The plan of the request `key` names, if it was planned before.
    func entry(for key: Key) -> Entry? {
        entries.value(for: key)
    }

    func store(_ entry: Entry, for key: Key) {
        entries.store(entry, for: key)
    }

    /// How many plans are kept (tests check what is cached).
    var count: Int { entries.count }
}
