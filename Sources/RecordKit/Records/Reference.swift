/// A REFERENCE value: the recordName it points at and what happens when that record is deleted.
public struct Reference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What deleting the referenced record does to the record holding the reference.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// Nothing: the reference is left dangling and resolves to null.
        case none = "NONE"
        /// The holder is deleted too, in the same transaction, transitively.
        case deleteSelf = "DELETE_SELF"
    }

    public var recordName: String
    public var action: Action

    public init(_ recordName: String, action: Action = .none) {
        self.recordName = recordName
        self.action = action
    }

    public var description: String {
        action == .none ? recordName : "\(recordName) (\(action.rawValue))"
    }
}
