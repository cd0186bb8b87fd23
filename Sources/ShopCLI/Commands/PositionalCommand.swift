import ArgumentParser
import Synchronization

/// A command whose arguments are all positional strings (`list add NAME`, `item add LIST NAME
/// [FIELD=VALUE ...]`), so that what swift-argument-parser makes of its words depends only on
/// how many there are, as long as none starts with `-` (and so could be an option, a help flag
/// or `--`): which argument each word becomes, or which error the count gets, never depends on
/// the text of a plain word. A conforming command must not check that text in `validate()`
/// either, since only the template's parse runs it.
///
/// That lets a script of thousands of such lines pay for the parser once per command and word
/// count instead of once per line (see ``parseReusingTemplate(_:)``): the parser rebuilds the
/// command's argument definitions by reflection on every call, ~70 µs, more than the command's
/// transaction costs apart from its commit.
protocol PositionalCommand: ShopCommand, Sendable {
    /// This command with every argument's text `text` replaced by `replace(text)`: each
    /// conforming command passes all of its arguments through `replace`.
    func replacingArguments(_ replace: (String) -> String) -> Self
}

extension PositionalCommand {
    /// The command `arguments` spell, as `parseAsRoot(_:)` would make it.
    ///
    /// When no argument starts with `-`, the parser runs once per word count on stand-in words
    /// (the template) and each line gets the template with its own words put back in place of
    /// the stand-ins. Anything else, and any count the parser rejects, is parsed as given, so
    /// that errors quote the real words.
    static func parseReusingTemplate(_ arguments: [String]) throws -> any ParsableCommand {
        guard !arguments.contains(where: { $0.hasPrefix("-") }),
            let template = template(forArgumentCount: arguments.count)
        else {
            return try parseAsRoot(arguments)
        }
        return template.replacingArguments { text in
            StandInWord.position(of: text).map { arguments[$0] } ?? text
        }
    }

    private static func template(forArgumentCount count: Int) -> Self? {
        let key = TemplateKey(command: ObjectIdentifier(self), argumentCount: count)
        if let cached = templates.withLock({ $0[key] }) {
            return cached as? Self
        }
        guard let parsed = try? parseAsRoot((0..<count).map(StandInWord.text(at:))) as? Self else { return nil }
        templates.withLock { $0[key] = parsed }
        return parsed
    }
}

/// Parsed templates by command type and word count, for the whole process.
private let templates = Mutex<[TemplateKey: any PositionalCommand]>([:])

private struct TemplateKey: Hashable {
    var command: ObjectIdentifier
    var argumentCount: Int
}

/// The words a template is parsed from: `\u{1}0`, `\u{1}1`, …: plain values to the parser,
/// distinct from each other and from any default value of an argument.
private enum StandInWord {
    static let marker: Character = "\u{1}"

    static func text(at position: Int) -> String {
        "\(marker)\(position)"
    }

    /// The position a stand-in word stands for; `nil` for any other text (a default value).
    static func position(of text: String) -> Int? {
        guard text.first == marker else { return nil }
        return Int(text.dropFirst())
    }
}
