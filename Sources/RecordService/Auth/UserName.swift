public import RecordKit

/// A user's name: 1 to 64 of `A-Z a-z 0-9 . _ -`, not starting with `.` or `-`. The strict
/// alphabet lets the name be part of the user's private database file name with no escaping.
public struct UserName: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    /// `text` as a user name, or `invalidArguments` saying what a name may hold.
    public init(_ text: String) throws(RecordError) {
        let bytes = Array(text.utf8)
        let allowed = bytes.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 46 || byte == 95 || byte == 45
        }
        guard (1...64).contains(bytes.count), allowed, bytes.first != 46, bytes.first != 45 else {
            throw RecordError(
                .invalidArguments,
                "a user name is 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'; '\(text)' is not one"
            )
        }
        self.text = text
    }

    public var description: String { text }
}
