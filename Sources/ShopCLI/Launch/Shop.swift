import ArgumentParser
import Foundation
import RecordKit

/// The `shop` program: parses the command line, opens the database and runs the `-e` commands
/// and `-f` files in order, or the interactive prompt, or standard input.
public enum Shop {
    /// Runs `shop` with `arguments` (without the program name) and returns the exit status:
    /// 0 on success, 1 when a command failed. Everything `console` held back is written before
    /// it returns.
    public static func main(
        arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard
    ) async -> Int32 {
        defer { console.flush() }
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
        let session: ShopSession
        do {
            let path = try DatabaseLocation.path(option: options.db, environment: environment)
            session = ShopSession(
                database: try RecordDatabase(path: path), console: console, printsJSON: options.json, keepsGoing: options.keepGoing,
                style: TextStyle.forStream(isTerminal: console.outputIsTerminal, environment: environment),
                errorStyle: errorStyle,
                pager: Pager.make(environment: environment, enabled: console.outputIsTerminal && !options.noPager)
            )
        } catch {
            console.writeError("\(errorStyle.errorLabel("error:")) \(error)\n")
            return 1
        }
        if let refusal = session.store.adoptShoppingRules() {
            console.writeError("warning: the shopping rules (unique, non-empty list and item names) are not enforced on this database yet: \(refusal.message)\n")
        }
        let steps = options.steps(in: arguments)
        if !steps.isEmpty {
            return await run(steps, in: session)
        }
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            return await InteractiveLoop(session: session, environment: environment).run()
        }
        let lines = StandardInput.lines(beforeWaiting: console.flush)
        let result = await ScriptRunner.run(lines: lines, name: "<stdin>", in: session)
        return result.failures == 0 ? 0 : 1
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
                    session.reportError("\(error)")
                    result = ScriptRunner.Result(failures: 1, quit: false)
                }
            }
            failures += result.failures
            if result.quit || (failures > 0 && !session.keepsGoing) { break }
        }
        return failures == 0 ? 0 : 1
    }
}
