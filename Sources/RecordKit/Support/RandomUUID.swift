import Foundation

/// Random (version 4) UUIDs from the system's random source directly: Foundation's `UUID()`
/// opens, reads and closes `/dev/urandom` on every call on Linux — three system calls where
/// `getrandom` is one, paid by every record saved without a name and every write a client sends.
public enum RandomUUID {
    /// A new random UUID.
    static func next() -> UUID {
        var random = SystemRandomNumberGenerator()
        let high: UInt64 = random.next(), low: UInt64 = random.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// A new random UUID in lowercase text, as transaction IDs and stored file names are written.
    public static func lowercased() -> String {
        next().uuidString.lowercased()
    }
}
