import ArgumentParser
import RecordKit

/// `item show LIST NAME`
struct ItemShowCommand: PositionalCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one item with every field and its system fields.",
        discussion: """
            The system fields are recordName, recordType, createdAt, modifiedAt and changeTag; \
            unset fields show blank.
            Example:
              item show Groceries Milk
            """
    )

    @Argument(help: "The list's name.")
    var list: String

    @Argument(help: "The item's name.")
    var name: String

    func replacingArguments(_ replace: (String) -> String) -> Self {
        var command = self
        command.list = replace(list)
        command.name = replace(name)
        return command
    }

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        session.show(.record(try session.store.itemDocument(named: name, in: list)))
        return .proceed
    }
}
