import Foundation
import RecordKit

/// The interactive prompt: `shop> `, `...> ` while a GraphQL document is unfinished. Errors are
/// reported and the prompt goes on, as it does after Ctrl-C cancels a command (``Interruption``); `quit` or Ctrl-D on an empty line leave with status 0.
struct InteractiveLoop {
    let session: ShopSession
    let environment: [String: String]

    /// The history file, `~/.shop_history`.
    var historyPath: String? {
        environment["HOME"].map { $0 + "/.shop_history" }
    }

    func run() async -> Int32 {
        Self.useUTF8()
        guard let editor = LineEditor(historyPath: historyPath) else {
            let lines = StandardInput.lines(beforeWaiting: session.console.flush)
            _ = await ScriptRunner.run(lines: lines, name: nil, in: session, keepsGoing: true)
            return 0
        }
        var runner = ScriptRunner(session: session, name: nil, keepsGoing: true)
        let completer = Completer(names: SessionCompletionNames(session: session))
        var continuing = false
        editor.complete = { completer.complete($0, inGraphQL: continuing) }
        session.console.print("shop: \(session.backend.location) — type help for the commands, Ctrl-D to leave")
        var number = 0
        // The lines of the entry being typed: a command, or a GraphQL document over several
        // lines, which enters the history as one entry once it is complete.
        var entry: [String] = []
        while true {
            continuing = runner.isPending
            session.console.flush()
            switch editor.readLine(prompt: continuing ? "...> " : "shop> ") {
            case .endOfInput:
                runner.finish()
                return 0
            case .interrupted:
                runner.abandon()
                entry = []
            case .line(let typed):
                // Ctrl-C cancels the command it interrupts, never the prompt.
                session.interruption.reset()
                // A recalled entry of several lines runs as if typed again line by line.
                for line in typed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                    number += 1
                    entry.append(line)
                    let goesOn = await runner.feed(line, number: number)
                    if !runner.isPending {
                        editor.remember(entry.joined(separator: "\n"))
                        entry = []
                    }
                    guard goesOn || !runner.quitRequested && !runner.lostOutput else { return 0 }
                }
            }
        }
    }

    /// Lets libedit read UTF-8 even when the environment names no locale.
    private static func useUTF8() {
        let locale = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
        if locale == "C" || locale == "POSIX" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}
