public import RecordKit
public import RecordQL

/// One database the service opened: the engine and its GraphQL engine, opened once and shared
/// by every request.
public final class ServiceDatabase: Sendable {
    public let address: DatabaseAddress
    public let database: RecordDatabase
    public let graphQL: RecordQLEngine

    init(address: DatabaseAddress, database: RecordDatabase) {
        self.address = address
        self.database = database
        self.graphQL = RecordQLEngine(database: database)
    }
}
