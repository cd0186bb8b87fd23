import Foundation
import RecordKit
import TestSupport

/// What the shopping commands do, as plain values: the lists by name with their item names.
/// Generates valid command scripts and says what the database must hold after each command.
struct ShoppingModel: Equatable, CustomStringConvertible {
    private(set) var lists: [String: Set<String>] = [:]

    init() {}

    /// The lists and items of the database at `path`.
    init(reading path: String) throws {
        let database = try RecordDatabase(path: path, bootstrap: .shopping)
        var names: [String: String] = [:]
        for list in try database.records(matching: Query("Lists")) {
            names[list.recordName] = list["name"]?.stringValue ?? "?"
            lists[names[list.recordName]!, default: []] = []
        }
        for item in try database.records(matching: Query("Items")) {
            let list = item["list"]?.referenceValue.flatMap { names[$0.recordName] } ?? "?"
            lists[list, default: []].insert(item["name"]?.stringValue ?? "?")
        }
    }

    var description: String {
        lists.keys.sorted().map { "\($0): \(lists[$0]!.sorted())" }.joined(separator: "; ")
    }

    /// One command of a script and the model after it.
    struct Step {
        var command: String
        var after: ShoppingModel
    }

    /// `count` commands that all succeed when run in order from this state: lists and items
    /// added, renamed and deleted, with a list deleted (and its items by cascade) now and then.
    func script(count: Int, using random: inout SplitMix64) -> [Step] {
        var model = self
        var steps: [Step] = []
        while steps.count < count {
            let command = model.apply(randomCommandUsing: &random)
            steps.append(Step(command: command, after: model))
        }
        return steps
    }

    /// A name not used before (64 random bits).
    private func freshName(_ prefix: String, using random: inout SplitMix64) -> String {
        "\(prefix)-\(String(random.next(), radix: 36))"
    }

    /// Picks a command valid in this state, applies it to the model and returns its text.
    private mutating func apply(randomCommandUsing random: inout SplitMix64) -> String {
        let roll = Int.random(in: 0..<100, using: &random)
        if lists.count < 2 || roll < 8 {
            let name = freshName("list", using: &random)
            lists[name] = []
            return "list add \(name)"
        }
        let list = lists.keys.sorted().randomElement(using: &random)!
        let items = lists[list]!.sorted()
        switch roll {
        case _ where roll < 60 || (items.isEmpty && roll < 85):
            let item = freshName("item", using: &random)
            lists[list]!.insert(item)
            return "item add \(list) \(item)"
        case ..<70:
            let item = items.randomElement(using: &random)!
            let renamed = freshName("item", using: &random)
            lists[list]!.remove(item)
            lists[list]!.insert(renamed)
            return "item set \(list) \(item) name=\(renamed)"
        case ..<85:
            let item = items.randomElement(using: &random)!
            lists[list]!.remove(item)
            return "item delete \(list) \(item)"
        case ..<93:
            let renamed = freshName("list", using: &random)
            lists[renamed] = lists.removeValue(forKey: list)
            return "list rename \(list) \(renamed)"
        default:
            lists.removeValue(forKey: list)
            return "list delete \(list)"
        }
    }
}
