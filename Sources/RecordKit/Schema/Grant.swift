/// A CKDB `GRANT READ, WRITE TO "_creator"` line, kept and printed back, and enforced by
/// ``AccessPolicy``.
public struct Grant: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Permission: String, Sendable, Hashable, Codable, CaseIterable {
        case read = "READ"
        case create = "CREATE"
        case write = "WRITE"
    }

    /// The permissions granted, in the order written.
    public var permissions: [Permission]
    /// The role: a system role (`_creator`, `_icloud`, `_world`, written quoted) or a custom one.
    public var role: String

    public init(_ permissions: [Permission], to role: String) {
        self.permissions = permissions
        self.role = role
    }

    /// Whether the role is one of CloudKit's system roles, which CKDB writes quoted.
    public var isSystemRole: Bool { role.hasPrefix("_") }

    /// The CKDB line, without trailing punctuation.
    public var description: String {
        let roleText = isSystemRole ? "\"\(role)\"" : role
        return "GRANT \(permissions.map(\.rawValue).joined(separator: ", ")) TO \(roleText)"
    }
}
