import Synchronization

/// The SQL statements a database traced (pass `{ log.append($0) }` as its `trace:`), in order,
/// so a test can assert "one query, not N".
public final class StatementLog: Sendable {
    private let entries = Mutex<[String]>([])

    public init() {}

    public func append(_ statement: String) {
        entries.withLock { $0.append(statement) }
    }

    public func reset() {
        entries.withLock { $0.removeAll() }
    }

    public var statements: [String] { entries.withLock { $0 } }
}
