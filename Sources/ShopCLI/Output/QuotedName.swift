import Foundation

/// A name as the REPL's messages quote it: `'Milk'`. A name longer than
/// ``maximumShownCharacters`` is shown by its start, `…` and its length, so that a mistyped or
/// pasted paragraph does not fill the screen with the error about it.
enum QuotedName {
    /// The longest name shown whole.
    static let maximumShownCharacters = 80
    /// How much of a longer name is shown.
    static let shownPrefixCharacters = 60

    /// `name` in single quotes, shortened when it is long.
    static func quoted(_ name: String) -> String {
        let count = name.count
        guard count > maximumShownCharacters else { return "'\(name)'" }
        return "'\(name.prefix(shownPrefixCharacters))…' (\(count.formatted()) characters)"
    }
}
