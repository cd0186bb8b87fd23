/// Colour for people at a terminal: table headers in bold, `error:` in bold red. ``plain``
/// (files, pipes, `NO_COLOR`, `TERM=dumb`) leaves text as it is, so what a script or a test
/// reads never holds escape sequences.
struct TextStyle: Sendable, Equatable {
    /// Whether ANSI escape sequences are written.
    var usesColour: Bool

    static let plain = TextStyle(usesColour: false)
    static let coloured = TextStyle(usesColour: true)

    /// The style for a stream: colour only when it is a terminal and the environment allows it
    /// (`NO_COLOR` set to anything non-empty, see no-color.org, or `TERM=dumb` turn it off).
    static func forStream(isTerminal: Bool, environment: [String: String]) -> TextStyle {
        let refused = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return TextStyle(usesColour: isTerminal && !refused)
    }

    /// A table's header line.
    func header(_ text: String) -> String {
        wrap(text, in: "1")
    }

    /// The `error:` that starts an error report.
    func errorLabel(_ text: String) -> String {
        wrap(text, in: "1;31")
    }

    private func wrap(_ text: String, in code: String) -> String {
        usesColour && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
