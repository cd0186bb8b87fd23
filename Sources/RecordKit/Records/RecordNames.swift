import Foundation
import Synchronization

/// Rules for recordNames and change tags.
enum RecordNames {
    /// The longest recordName accepted, in UTF-8 bytes (CloudKit's limit).
    static let maximumLength = 255

    /// Throws `invalidArguments` unless `name` is 1…255 UTF-8 bytes without NUL or control characters.
    static func validate(_ name: String) throws(RecordError) {
        guard !name.isEmpty else {
            throw RecordError(.invalidArguments, "a recordName cannot be empty")
        }
        guard name.utf8.count <= maximumLength else {
            throw RecordError(.invalidArguments, "recordName '\(name.prefix(40))…' is longer than \(maximumLength) bytes", recordName: String(name.prefix(40)))
        }
        // Printable ASCII (nearly every name) needs no Unicode property lookups.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw RecordError(.invalidArguments, "recordName \(name.debugDescription) contains control characters", recordName: name)
        }
    }
}

extension RecordNames {
    /// A new random (version 4) UUID, for records saved without a name (``RandomUUID``).
    static func generated() -> String {
        RandomUUID.next().uuidString
    }
}

/// Change tags: short random strings, different on every save.
///
/// SplitMix64 over a process-wide counter from a random seed: unpredictable across processes,
/// never repeated within one, and no system call per save (a `getrandom` per tag cost a tenth of
/// a single-record update).
enum ChangeTag {
    private static let seed = UInt64.random(in: 0...UInt64.max)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> String {
        var mixed = seed &+ counter.wrappingAdd(1, ordering: .relaxed).newValue &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return String(mixed ^ (mixed >> 31), radix: 36)
    }
}
