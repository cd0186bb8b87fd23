import ArgumentParser
import RecordKit

/// `item show LIST NAME`
struct ItemShowCommand: ItemPositionalCommand {
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

    @OptionGroup var item: ItemName

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        session.show(.record(try await session.store.itemDocument(named: item.name, in: item.list)))
        return .proceed
    }
}
