import ArgumentParser

/// Positional arguments gathered in one group that can replace their own texts
/// (``PositionalCommand/replacingArguments(_:)``).
protocol ReplaceableArguments: ParsableArguments {
    /// These arguments with each text passed through `replace`.
    func replacingArguments(_ replace: (String) -> String) -> Self
}

/// An `item` command whose arguments are all in its `item` group, which replaces them.
protocol ItemPositionalCommand: PositionalCommand {
    associatedtype Arguments: ReplaceableArguments
    var item: Arguments { get set }
}

extension ItemPositionalCommand {
    func replacingArguments(_ replace: (String) -> String) -> Self {
        var command = self
        command.item = item.replacingArguments(replace)
        return command
    }
}
