/// One key of a JSON object the engine builds inside SQLite, and what goes under it: a member of
/// a record's ``Projection``, of an ``Aggregation``, of a function's object in it, or of a
/// LOCATION or ASSET value (``Projection/Part``). Members keep their order in the object.
public struct JSONMember<Value: Sendable & Hashable>: Sendable, Hashable {
    public var key: String
    public var value: Value

    public init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }
}
