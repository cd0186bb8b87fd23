import RecordKit

/// The lists and items a remote session last saw in the server's answers, by name: what lets an
/// item command through a server skip its look-up request (``RemoteBackend/namedRecords(list:item:forAdding:)``).
///
/// Every record is kept with the change tag it was read with, and a write worked out from a
/// remembered record carries that tag as a precondition (`requireUnchanged`), so a record that
/// another client renamed, moved or deleted meanwhile makes the write fail, changing nothing,
/// instead of acting on a stale name (``RemoteBackend/asOneUnit(_:)`` then runs the command again
/// with fresh look-ups).
struct SeenRecords {
    /// Where an item is remembered: by its list's recordName and its name. Names are compared by
    /// their bytes (``ExactText``), as the server compares them: a name typed in another Unicode
    /// form is another name there.
    private struct ItemKey: Hashable {
        var list: ExactText
        var name: ExactText
    }

    /// The most records remembered; past it, everything is forgotten and seen again.
    static let capacity = 10_000

    /// Where a record is remembered, by its recordName.
    private enum Place {
        case list(name: ExactText)
        case item(ItemKey)
    }

    private var lists: [ExactText: Record] = [:]
    private var items: [ItemKey: Record] = [:]
    private var places: [ExactText: Place] = [:]

    /// The list remembered under `name`.
    func list(named name: String) -> Record? {
        lists[ExactText(name)]
    }

    /// The item named `name` of the list named `listRecordName` by recordName.
    func item(named name: String, inList listRecordName: String) -> Record? {
        items[ItemKey(list: ExactText(listRecordName), name: ExactText(name))]
    }

    /// Remembers `record` as read or saved now, in place of what was remembered of it before;
    /// records of other types, or without a name or change tag, are not kept.
    mutating func remember(_ record: Record) {
        unplace(ExactText(record.recordName))
        guard record.changeTag?.isEmpty == false, case .string(let text)? = record["name"] else { return }
        let name = ExactText(text)
        if places.count >= Self.capacity { forgetAll() }
        switch record.recordType {
        case ShoppingStore.listType:
            // Another list under this name: the one remembered was renamed or deleted.
            if let previous = lists[name] { forget(recordName: previous.recordName) }
            lists[name] = record
            places[ExactText(record.recordName)] = .list(name: name)
        case ShoppingStore.itemType:
            guard case .reference(let list)? = record["list"] else { return }
            let key = ItemKey(list: ExactText(list.recordName), name: name)
            if let previous = items[key] { unplace(ExactText(previous.recordName)) }
            items[key] = record
            places[ExactText(record.recordName)] = .item(key)
        default:
            break
        }
    }

    /// Forgets the record named `recordName`, and for a list, its items (a deleted list takes
    /// them with it).
    mutating func forget(recordName: String) {
        let recordName = ExactText(recordName)
        guard case .list = places[recordName] else { return unplace(recordName) }
        unplace(recordName)
        for (key, item) in items where key.list == recordName {
            unplace(ExactText(item.recordName))
        }
    }

    /// Removes the entry of the record named `recordName` only (a list seen again keeps its
    /// items, which are remembered by the list's recordName, not its name).
    private mutating func unplace(_ recordName: ExactText) {
        switch places.removeValue(forKey: recordName) {
        case .list(let name): lists[name] = nil
        case .item(let key): items[key] = nil
        case nil: break
        }
    }

    mutating func forgetAll() {
        lists.removeAll()
        items.removeAll()
        places.removeAll()
    }
}
