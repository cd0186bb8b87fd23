import ArgumentParser
import RecordKit

/// `lists`
struct ListsCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Show all lists with their item counts.",
        discussion: "Example:\n  lists"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let lists = try session.store.lists()
        if lists.isEmpty {
            session.console.print("no lists yet; add one with: list add NAME")
        } else {
            let rows = lists.map { [$0.name, String($0.itemCount)] }
            session.console.print(TextTable(header: ["list", "items"], rows: rows, rightAligned: [1]).rendered)
        }
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
        try session.store.addList(name)
        session.console.print("added list \(LineTokenizer.quote(name))")
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
        try session.store.renameList(name, to: newName)
        session.console.print("renamed list \(LineTokenizer.quote(name)) to \(LineTokenizer.quote(newName))")
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
        let items = try session.store.deleteList(name)
        session.console.print("deleted list \(LineTokenizer.quote(name)) and its \(items) item\(items == 1 ? "" : "s")")
        return .proceed
    }
}
