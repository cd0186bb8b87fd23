import ArgumentParser
import RecordKit
import RecordQL

/// `lists`
struct ListsCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Show all lists with their item counts.",
        discussion: "Example:\n  lists"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let rows = try await session.store.lists().map { list in
            JSONValue.members(["name": .string(list.name), "items": .number(list.itemCount)])
        }
        session.show(.rows(rows, columns: [.init("name", header: "list"), .init("items")], whenEmpty: "no lists yet; add one with: list add NAME"))
        return .proceed
    }
}

/// `list add | rename | delete`
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Add, rename or delete a list.",
        subcommands: [ListAddCommand.self, ListRenameCommand.self, ListDeleteCommand.self]
    )
}

struct ListAddCommand: PositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a list; list names are unique.",
        discussion: "Example:\n  list add Groceries\n  list add 'Corner shop'"
    )

    @Argument(help: "The new list's name (quoted when it has spaces).")
    var name: String

    func replacingArguments(_ replace: (String) -> String) -> Self {
        var command = self
        command.name = replace(name)
        return command
    }

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        try await session.store.addList(name)
        session.show(.message("added list \(LineTokenizer.quote(name))", ["list": .string(name)]))
        return .proceed
    }
}

struct ListRenameCommand: PositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a list.",
        discussion: "Example:\n  list rename Groceries 'Weekly shop'"
    )

    @Argument(help: "The list's name.")
    var name: String

    @Argument(help: "Its new name.")
    var newName: String

    func replacingArguments(_ replace: (String) -> String) -> Self {
        var command = self
        command.name = replace(name)
        command.newName = replace(newName)
        return command
    }

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        try await session.store.renameList(name, to: newName)
        session.show(
            .message("renamed list \(LineTokenizer.quote(name)) to \(LineTokenizer.quote(newName))", ["list": .string(newName), "previousName": .string(name)]))
        return .proceed
    }
}

struct ListDeleteCommand: PositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a list and, with it, all its items.",
        discussion: "Example:\n  list delete Groceries"
    )

    @Argument(help: "The list's name.")
    var name: String

    func replacingArguments(_ replace: (String) -> String) -> Self {
        var command = self
        command.name = replace(name)
        return command
    }

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let items = try await session.store.deleteList(name)
        session.show(
            .message(
                "deleted list \(LineTokenizer.quote(name)) and its \(items) item\(items == 1 ? "" : "s")",
                ["list": .string(name), "deletedItems": .number(items)]))
        return .proceed
    }
}
