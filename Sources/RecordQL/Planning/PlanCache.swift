import GraphQL
import RecordKit

/// Prepared query operations by request, so a query asked again exactly as before — the same
/// text, operation and variables, against the same schema version — is neither parsed,
/// validated nor planned again (the store keeps what its reads compile to). A plan
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

    private let entries: BoundedCache<Key, PreparedOperation>

    init(capacity: Int = 512) {
        entries = BoundedCache(capacity: capacity)
    }

    /// The plan of the request `key` names, if it was planned before.
    func entry(for key: Key) -> PreparedOperation? {
        entries.value(for: key)
    }

    func store(_ entry: PreparedOperation, for key: Key) {
        entries.store(entry, for: key)
    }

    /// How many plans are kept (tests check what is cached).
    var count: Int { entries.count }
}
