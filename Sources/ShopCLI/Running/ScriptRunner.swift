import RecordKit
import RecordQL

/// Runs lines of commands and GraphQL in a session: a script file, `-e` text, standard input or
/// the lines typed at the prompt.
///
/// A failing entry is reported on standard error as `error: <code>: <message>`, prefixed with
/// `FILE:LINE: ` when the lines come from a named file. Unless the runner keeps going, the
/// first failure stops it. Ctrl-C (``Interruption``) stops it after the command running, which
/// is cancelled when it had not finished; a runner reading a file then names the last line that
/// finished. With `--json` a failing command also prints
/// `{"errors":[{"message","extensions":{"code"}}]}` on standard output.
struct ScriptRunner {
    let session: ShopSession
    /// The file the lines come from, for error prefixes; `nil` for `-e` and the prompt.
    let name: String?
    /// Report failures and carry on (the prompt, `--keep-going`) instead of stopping.
    let keepsGoing: Bool
    private var assembler = LineAssembler()
    /// Failed entries so far.
    private(set) var failures = 0
    /// `quit` was run.
    private(set) var quitRequested = false
    /// Ctrl-C stopped the run.
    private(set) var wasInterrupted = false
    /// Standard output could not be written, which stopped the run (``LostOutput``).
    private(set) var lostOutput = false
    /// The line of the last entry that finished (succeeded or failed), for the interruption message.
    private var lastFinishedLine: Int?

    init(session: ShopSession, name: String?, keepsGoing: Bool) {
        self.session = session
        self.name = name
        self.keepsGoing = keepsGoing
    }

    /// What a whole run did.
    struct Result: Equatable {
        var failures: Int
        var quit: Bool
        var interrupted = false
    }

    /// Runs `lines` (numbered from 1) to the end, or to `quit` or, unless it keeps going (by
    /// default as the session says), the first failure.
    static func run(lines: some Sequence<String>, name: String?, in session: ShopSession, keepsGoing: Bool? = nil) async -> Result {
        var runner = ScriptRunner(session: session, name: name, keepsGoing: keepsGoing ?? session.keepsGoing)
        for (index, line) in lines.enumerated() {
            guard await runner.feed(line, number: index + 1) else { break }
        }
        if !runner.quitRequested, !runner.wasInterrupted, !runner.lostOutput, runner.keepsGoing || runner.failures == 0 {
            runner.finish()
        }
        return Result(failures: runner.failures, quit: runner.quitRequested, interrupted: runner.wasInterrupted)
    }

    /// Whether a GraphQL document is waiting for more lines.
    var isPending: Bool { assembler.isPending }

    /// Takes line `number` and runs what it completes. Returns false when the run must stop.
    mutating func feed(_ line: String, number: Int) async -> Bool {
        if session.interruption.isRequested { return stopInterrupted() }
        if let lost = session.console.lostOutput, lost.errorNumber != nil { return stopForLostOutput(lost) }
        let entry: ScriptEntry
        do {
            guard let complete = try assembler.feed(line, number: number) else { return true }
            entry = complete
        } catch {
            report(error, line: number)
            return keepsGoing
        }
        do {
            let outcome = try await run(entry)
            if session.interruption.isRequested {
                // A watch runs until Ctrl-C: the Ctrl-C that ends it does not make it finished.
                if !entry.runsUntilInterrupted { lastFinishedLine = entry.line }
                return stopInterrupted()
            }
            lastFinishedLine = entry.line
            switch outcome {
            case .proceed:
                return true
            case .quit:
                quitRequested = true
                return false
            case .failedAndReported:
                failures += 1
                return keepsGoing
            }
        } catch {
            // Failing because Ctrl-C interrupted its statement is being cancelled, not failing.
            if session.interruption.isRequested { return stopInterrupted() }
            lastFinishedLine = entry.line
            report(error, line: entry.line)
            return keepsGoing
        }
    }

    /// Stops the run for Ctrl-C and, unless an inner script has already, says where:
    /// `interrupted (Ctrl-C): FILE:LINE is the last command that finished` for a file,
    /// `cancelled (Ctrl-C)` at the prompt and for `-e`.
    private mutating func stopInterrupted() -> Bool {
        wasInterrupted = true
        assembler.abandon()
        guard session.interruption.claimReport() else { return false }
        let message =
            switch (name, lastFinishedLine) {
            case (let name?, let line?): "interrupted (Ctrl-C): \(name):\(line) is the last command that finished\n"
            case (let name?, nil): "interrupted (Ctrl-C) before any command of \(name) finished\n"
            case (nil, _): "cancelled (Ctrl-C)\n"
            }
        session.console.writeError(message)
        return false
    }

    /// Stops the run because standard output could not be written, reporting it once (an outer
    /// `source` or script stops without saying it again), after the last entry that finished.
    private mutating func stopForLostOutput(_ lost: LostOutput) -> Bool {
        lostOutput = true
        assembler.abandon()
        if let error = lost.claimReport() { report(error, line: lastFinishedLine ?? 0) } else { failures += 1 }
        return false
    }

    /// Ends the input: an unfinished GraphQL document is reported as a failure.
    mutating func finish() {
        let line = assembler.pendingLine
        do {
            try assembler.finish()
        } catch {
            report(error, line: line ?? 0)
        }
    }

    /// Drops an unfinished GraphQL document (Ctrl-C at the prompt).
    mutating func abandon() {
        assembler.abandon()
    }

    private func run(_ entry: ScriptEntry) async throws(RecordError) -> CommandOutcome {
        switch entry.kind {
        case .command(let words):
            do {
                return try await CommandParser.parse(words).run(in: session)
            } catch {
                // With --json a failing command prints a document too, shaped as a GraphQL
                // response's errors, so that a reader gets one document per command.
                if session.printsJSON { session.console.print(JSONValue(error).text) }
                throw error
            }
        case .graphQL(let document):
            try await GraphQLOutput.run(document, in: session)
        case .explainGraphQL(let document):
            try await ExplainCommand.explainGraphQL(document, in: session)
        case .watchGraphQL(let document):
            do {
                try await WatchCommand.watch(document, in: session)
            } catch {
                // A watch that ends in a failure (the server stopping) says so in a document too.
                if session.printsJSON { session.console.print(JSONValue(error).text) }
                throw error
            }
        }
        return .proceed
    }

    private mutating func report(_ error: RecordError, line: Int) {
        failures += 1
        var details = ""
        if let location = error.location, !location.lineText.isEmpty {
            details = location.excerpt.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n"
        }
        session.reportError(error.shownDescription, prefix: name.map { "\($0):\(line): " } ?? "", details: details)
    }
}
