import ArgumentParser
public import Foundation
import RecordKit
import RecordQL

/// The `shop` program: parses the command line, opens the database and runs the `-e` commands
/// and `-f` files in order, or the interactive prompt, or standard input.
public enum Shop {
    /// Runs `shop` with `arguments` (without the program name) and returns the exit status:
    /// 0 on success, 1 when a command failed, 130 when Ctrl-C stopped a script (`-e`, `-f` or
    /// standard input). Everything `console` held back is written before it returns; standard
    /// output that could not be written makes a run that succeeded fail (``LostOutput``).
    ///
    /// With `handlesSIGINT`, SIGINT cancels the command running instead of ending the process
    /// (``Interruption``); the `shop` executable sets it, tests running many `main`s in one
    /// process do not.
    public static func main(
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard,
        handlesSIGINT: Bool = false
    ) async -> Int32 {
        let status = await runCommandLine(arguments, environment: environment, console: console, handlesSIGINT: handlesSIGINT)
        console.flush()
        // Output lost to the end (held back, then not written at the last flush) fails the run too.
        guard let lost = console.lostOutput, lost.errorNumber != nil else { return status }
        if let error = lost.claimReport() {
            let errorStyle = TextStyle.forStream(isTerminal: console.errorsAreTerminal, environment: environment)
            console.writeError("\(errorStyle.errorLabel("error:")) \(error.shownDescription)\n")
        }
        return status == 0 ? 1 : status
    }

    private static func runCommandLine(_ arguments: [String], environment: [String: String], console: Console, handlesSIGINT: Bool) async -> Int32 {
        let errorStyle = TextStyle.forStream(isTerminal: console.errorsAreTerminal, environment: environment)
        let options: ShopOptions
        do {
            options = try ShopOptions.parse(arguments)
        } catch {
            if ShopOptions.exitCode(for: error) == .success {
                console.print(ShopOptions.fullMessage(for: error, columns: HelpCommand.columns))
                return 0
            }
            console.writeError("\(errorStyle.errorLabel("error:")) invalidArguments: \(ShopOptions.message(for: error))\nusage: \(ShopOptions.usageString())\n")
            return 1
        }
        let interruption = Interruption()
        let backend: any ShopBackend
        do {
            backend = try await openBackend(options, environment: environment, console: console, interruption: interruption)
        } catch {
            console.writeError("\(errorStyle.errorLabel("error:")) \(RecordError.shownDescription(of: error))\n")
            // With --json a program reads what failed on standard output, as for a failed command.
            if options.json { console.print(JSONValue(error as? RecordError ?? RecordError(wrapping: error)).text) }
            return 1
        }
        let session = ShopSession(
            backend: backend, console: console,
            printsJSON: options.json, keepsGoing: options.keepGoing,
            style: TextStyle.forStream(isTerminal: console.outputIsTerminal, environment: environment),
            errorStyle: errorStyle,
            pager: Pager.make(environment: environment, enabled: console.outputIsTerminal && !options.noPager),
            interruption: interruption
        )
        if !options.readOnly, let database = backend.localDatabase, let refusal = ShoppingStore.adoptShoppingRules(in: database) {
            console.writeError(
                "warning: the shopping rules (unique, non-empty list and item names) are not enforced on this database yet: \(refusal.sentence)\n")
        }
        if handlesSIGINT { session.interruption.installForSIGINT(database: backend.localDatabase) }
        let status = await run(options, arguments: arguments, in: session, environment: environment)
        await backend.close()
        return status
    }

    /// Opens the database file, or connects to the server that `--server` or `$SHOP_SERVER`
    /// names (checking that it answers and takes the credential).
    private static func openBackend(
        _ options: ShopOptions, environment: [String: String], console: Console, interruption: Interruption
    ) async throws -> any ShopBackend {
        let settings =
            options.db == nil
            ? try ServerSettings.resolve(server: options.server, token: options.token, database: options.database, environment: environment) : nil
        guard let settings else {
            if options.token != nil || options.database != nil {
                throw RecordError(.invalidArguments, "--token and --database go with --server URL (or $SHOP_SERVER)")
            }
            let path = try DatabaseLocation.path(option: options.db, environment: environment)
            return LocalBackend(
                database: options.readOnly ? try RecordDatabase.readOnly(path: path) : try RecordDatabase(path: path, bootstrap: try ShoppingLists.schema))
        }
        if options.singleTransaction { throw singleTransactionThroughServer }
        if options.readOnly {
            throw RecordError(
                .invalidArguments, "--read-only opens a database file; through a server, use a token that may only read (shop token create --api)")
        }
        let remote = RemoteBackend(connection: ServerConnection(settings: settings, interruption: interruption, console: console))
        do {
            try await remote.connect()
        } catch {
            await remote.close()
            throw error
        }
        return remote
    }

    /// Runs the `-e` commands and `-f` files, or the prompt, or standard input, in `session`.
    private static func run(_ options: ShopOptions, arguments: [String], in session: ShopSession, environment: [String: String]) async -> Int32 {
        let steps = options.steps(in: arguments)
        if options.singleTransaction {
            return await runAsOneTransaction(steps, in: session)
        }
        if !steps.isEmpty {
            // Known before they run, a script's commands never wait for input: they may run on
            // the thread the backend prefers (a prompt or standard input blocks while it waits).
            return await withTaskExecutorPreference(session.backend.scriptExecutor) { await run(steps, in: session) }
        }
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            return await InteractiveLoop(session: session, environment: environment).run()
        }
        let lines = StandardInput.lines(beforeWaiting: session.console.flush)
        let result = await ScriptRunner.run(lines: lines, name: "<stdin>", in: session)
        if let (line, refusal) = lines.refusal {
            session.reportError(refusal.shownDescription, prefix: "<stdin>:\(line): ")
            return result.interrupted ? interruptedStatus : 1
        }
        return exitStatus(of: result)
    }

    /// Exit status after Ctrl-C stopped a script: the shell's for a process ended by SIGINT
    /// (128 + 2), so that a caller can tell it from a failed command (psql uses 3).
    static let interruptedStatus: Int32 = 130

    private static func exitStatus(of result: ScriptRunner.Result) -> Int32 {
        result.interrupted ? interruptedStatus : result.failures == 0 ? 0 : 1
    }

    /// `-1` through a server: refused. Its commands read what the commands before them wrote (a
    /// list by its name, an item's change tag) and decide by it, so they cannot be gathered into
    /// one batch sent at the end; and a server transaction never stays open across requests.
    static let singleTransactionThroughServer = RecordError(
        .invalidArguments,
        "-1 keeps one transaction of a database file open for the whole script, and a server's transactions never span requests: each command reads what the ones before it wrote; run the script with --db on the server's machine, or without -1 (through a server each command is still one transaction, applied once)"
    )

    /// `-1`: the steps in one transaction, which commits when every command succeeded and is
    /// rolled back whole otherwise.
    private static func runAsOneTransaction(_ steps: [ShopOptions.Step], in session: ShopSession) async -> Int32 {
        struct RolledBack: Error {
            var status: Int32
        }
        do {
            guard let database = session.backend.localDatabase else { throw singleTransactionThroughServer }
            return try await database.inOneTransaction {
                let status = await run(steps, in: session)
                // What the commands printed must be out before they are committed: output that
                // cannot be written fails the script.
                session.console.flush()
                if status != 0 || session.console.lostOutput?.errorNumber != nil { throw RolledBack(status: max(status, 1)) }
                return status
            }
        } catch let rolledBack as RolledBack {
            session.console.writeError("rolled back: -1 runs every -e and -f as one transaction, and it did not finish; nothing was applied\n")
            return rolledBack.status
        } catch {
            session.reportError(RecordError.shownDescription(of: error))
            return 1
        }
    }

    private static func run(_ steps: [ShopOptions.Step], in session: ShopSession) async -> Int32 {
        var failures = 0
        for step in steps {
            let result: ScriptRunner.Result
            switch step {
            case .command(let command):
                result = await ScriptRunner.run(lines: command.lines, name: nil, in: session)
            case .file(let file):
                do {
                    result = await ScriptRunner.run(lines: try SourceFile.read(file).lines, name: file, in: session)
                } catch {
                    session.reportError(RecordError.shownDescription(of: error))
                    result = ScriptRunner.Result(failures: 1, quit: false)
                }
            }
            failures += result.failures
            if result.interrupted { return interruptedStatus }
            if result.quit || (failures > 0 && !session.keepsGoing) { break }
        }
        return failures == 0 ? 0 : 1
    }
}
