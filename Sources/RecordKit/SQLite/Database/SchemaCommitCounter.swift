import Synchronization

/// Counts the transactions that changed the schema and committed on one ``RecordDatabase``
/// instance; the commit hooks of its connections add to it.
final class SchemaCommitCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .acquiring) }

    func increment() {
        count.add(1, ordering: .releasing)
    }
}
