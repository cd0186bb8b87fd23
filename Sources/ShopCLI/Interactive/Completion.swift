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

/// A session's names, read from its backend (a failure offers nothing). libedit asks
/// synchronously, so each look-up waits for the backend (``BlockingCall``).
struct SessionCompletionNames: CompletionNames {
    let session: ShopSession

    func listNames() -> [String] {
        BlockingCall.run { (try? await session.store.listNames()) ?? [] }
    }

    func itemNames(inList list: String) -> [String] {
        BlockingCall.run { (try? await session.store.itemNames(in: list)) ?? [] }
    }

    func recordTypes() -> [String] {
        schema().map { $0.recordTypes.filter { !$0.isCloudKitSystemType }.map(\.name) } ?? []
    }

    func fieldNames(of recordType: String) -> [String] {
        schema()?.recordType(named: recordType)?.userFields.map(\.name) ?? []
    }

    private func schema() -> Schema? {
        BlockingCall.run { try? await session.backend.schema() }
    }
}
