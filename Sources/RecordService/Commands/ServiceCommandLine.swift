import ArgumentParser
import Foundation
public import RecordKit

/// The service's commands of the `shop` executable: `shop serve`, `shop token …`, `shop user …`
/// and `shop key …`.
///
/// The executable asks ``run(_:)`` first; it answers `nil` for every other command line without
/// touching anything, so the REPL starts as fast as without the service.
public enum ServiceCommandLine {
    /// The first arguments that name a service command.
    static let commandNames: Set<String> = ["serve", "token", "user", "key", "schema"]

    /// The schema of a new public database, for the command running (``run(_:newDatabaseSchema:)``).
    @TaskLocal static var newDatabaseSchema = Schema()

    /// Runs `arguments` (without the program name) when they name a service command, and returns
    /// the exit status; `nil` when they do not. A public database the command creates gets
    /// `newDatabaseSchema` (the engine knows no product: the caller says what a new one holds).
    public static func run(_ arguments: [String], newDatabaseSchema: Schema) async -> Int32? {
        // `shop help token create` asks for the help of `shop token create`, as the service
        // commands' own help says.
        let command = arguments.first == "help" ? arguments.dropFirst() : arguments[...]
        guard let first = command.first, commandNames.contains(first) else { return nil }
        // `schema deploy` is the service's; every other `schema` command is the REPL's.
        if first == "schema" && command.dropFirst().first != "deploy" { return nil }
        return await $newDatabaseSchema.withValue(newDatabaseSchema) { await runCommand(arguments) }
    }

    private static func runCommand(_ arguments: [String]) async -> Int32 {
        do {
            var command = try ServiceCommands.parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch let error as RecordError {
            StandardStreams.printError("error: \(error)\n")
            return 1
        } catch {
            let code = ServiceCommands.exitCode(for: error)
            let message = ServiceCommands.fullMessage(for: error)
            if code == .success {
                do {
                    try StandardStreams.print(message)
                } catch {
                    StandardStreams.printError("error: \(error)\n")
                    return 1
                }
            } else if !message.isEmpty {
                StandardStreams.printError(message + "\n")
            }
            return code.rawValue
        }
    }
}

/// The root of the service's commands, named `shop` in their help.
struct ServiceCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop",
        abstract: "The record service: serve the data folder over HTTP and manage its tokens, users and keys.",
        subcommands: [ServeCommand.self, TokenCommand.self, UserCommand.self, KeyCommand.self, SchemaCommand.self]
    )
}

/// `--data DIR`, shared by every service command.
struct DataOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data folder (default: the folder of the REPL's default database).", valueName: "DIR"))
    var data: String?

    func folder() throws -> DataFolder {
        try DataFolder(path: data ?? DataFolder.defaultPath(), newDatabaseSchema: ServiceCommandLine.newDatabaseSchema)
    }

    /// The data folder for a command that works on what is already in it: refused, naming the
    /// path, when there is no folder there (a mistyped `--data` is not a new, empty folder).
    func existingFolder() throws -> DataFolder {
        let path = data ?? DataFolder.defaultPath()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RecordError(.invalidArguments, "there is no data folder at \(path); pass --data DIR naming the folder shop serve uses")
        }
        return try folder()
    }
}
