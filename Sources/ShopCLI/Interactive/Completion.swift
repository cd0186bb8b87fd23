import RecordKit

/// What the Tab key can put in place of the word before the cursor.
struct Completion: Equatable {
    /// The word as typed, quotes included (what a candidate replaces).
    var typed: String
    /// Whole replacements, quoted where needed, in order.
    var candidates: [String]

    /// The longest start every candidate shares.
    var commonPrefix: String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

/// The names completion offers besides command words, looked up when Tab is pressed.
protocol CompletionNames {
    func listNames() -> [String]
    func itemNames(inList list: String) -> [String]
    func recordTypes() -> [String]
    func fieldNames(of recordType: String) -> [String]
}

/// A session's names, read from its database (a failure offers nothing).
struct SessionCompletionNames: CompletionNames {
    let session: ShopSession

    func listNames() -> [String] {
        (try? session.store.listNames()) ?? []
    }

    func itemNames(inList list: String) -> [String] {
        (try? session.store.itemNames(in: list)) ?? []
    }

    func recordTypes() -> [String] {
        ((try? session.database.schema.recordTypes) ?? []).filter { !$0.isCloudKitSystemType }.map(\.name)
    }

    func fieldNames(of recordType: String) -> [String] {
        ((try? session.database.schema.recordType(named: recordType)?.userFields) ?? []).map(\.name)
    }
}
