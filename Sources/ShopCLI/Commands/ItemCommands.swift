import ArgumentParser
import RecordKit
import RecordQL

/// `item add | set | show | delete`
struct ItemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "Add, change, show or delete an item of a list.",
        subcommands: [ItemAddCommand.self, ItemSetCommand.self, ItemShowCommand.self, ItemDeleteCommand.self]
    )
}

struct ItemAddCommand: ItemPositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an item to a list, with optional FIELD=VALUE pairs.",
        discussion: """
            Values are typed by the schema (see: schema). Item names are unique within a list.
            Example:
              item add Groceries Milk
              item add Groceries 'Oat milk' number=2
            """
    )

    @OptionGroup var item: ItemArguments

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        try await session.store.addItem(item.name, to: item.list, assignments: try item.assignments.map(FieldAssignment.init(parsing:)))
        session.show(
            .message("added \(LineTokenizer.quote(item.name)) to \(LineTokenizer.quote(item.list))", ["list": .string(item.list), "item": .string(item.name)]))
        return .proceed
    }
}

struct ItemSetCommand: ItemPositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change fields of an item (FIELD= removes a value).",
        discussion: """
            name=NEW renames the item; list=OTHER moves it to list OTHER.
            Example:
              item set Groceries Milk number=2
            """
    )

    @OptionGroup var item: ItemArguments

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let assignments = try item.assignments.map(FieldAssignment.init(parsing:))
        try await session.store.setItem(item.name, in: item.list, assignments: assignments)
        // Renamed or moved, the item is said where it is now.
        let name = assignments.last { $0.field == "name" }?.text ?? item.name
        let list = assignments.last { $0.field == ShoppingStore.listField }?.text ?? item.list
        let now = (name, list) == (item.name, item.list) ? "" : "; it is now \(LineTokenizer.quote(name)) in \(LineTokenizer.quote(list))"
        let updated = "updated \(LineTokenizer.quote(item.name)) in \(LineTokenizer.quote(item.list))"
        session.show(.message(updated + now, ["list": .string(item.list), "item": .string(item.name)]))
        return .proceed
    }
}

struct ItemDeleteCommand: ItemPositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an item of a list.",
        discussion: "Example:\n  item delete Groceries Milk"
    )

    @OptionGroup var item: ItemName

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        try await session.store.deleteItem(item.name, in: item.list)
        session.show(
            .message(
                "deleted \(LineTokenizer.quote(item.name)) from \(LineTokenizer.quote(item.list))", ["list": .string(item.list), "item": .string(item.name)]))
        return .proceed
    }
}

/// The arguments that name one item, `item show` and `item delete`'s: the list and the item's name.
struct ItemName: ReplaceableArguments {
    @Argument(help: "The list's name.")
    var list: String

    @Argument(help: "The item's name.")
    var name: String

    /// These arguments with each text passed through `replace` (``PositionalCommand``).
    func replacingArguments(_ replace: (String) -> String) -> Self {
        var arguments = self
        arguments.list = replace(list)
        arguments.name = replace(name)
        return arguments
    }
}

/// The arguments `item add` and `item set` share: the list, the item's name and FIELD=VALUE pairs.
struct ItemArguments: ReplaceableArguments {
    @OptionGroup var item: ItemName

    @Argument(help: ArgumentHelp("Field values, e.g. number=2.", valueName: "field=value"))
    var assignments: [String] = []

    var list: String { item.list }
    var name: String { item.name }

    /// These arguments with each text passed through `replace` (``PositionalCommand``).
    func replacingArguments(_ replace: (String) -> String) -> Self {
        var arguments = self
        arguments.item = item.replacingArguments(replace)
        arguments.assignments = assignments.map(replace)
        return arguments
    }
}
