import ArgumentParser
import Foundation
import RecordKit

/// `shop token create|list|revoke`: the bearer tokens of a data folder.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke the service's bearer tokens.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print it (the only time it is shown; only its SHA-256 is kept).",
            discussion: "Example: shop token create --admin --label ops"
        )

        @OptionGroup var data: DataOption
        @Flag(help: "A token that may do everything.") var admin = false
        @Option(help: ArgumentHelp("A token acting as the user NAME (roles _icloud and _creator).", valueName: "NAME")) var user: String?
        @Flag(help: "An API token: _world, which reads the public database.") var api = false
        @Option(help: ArgumentHelp("The name to list and revoke it by (default: generated).", valueName: "TEXT")) var label: String?

        func validate() throws {
            let chosen = [admin, user != nil, api].filter { $0 }.count
            guard chosen == 1 else { throw ValidationError("choose exactly one of --admin, --user NAME and --api") }
            if let user {
                do {
                    _ = try UserName(user)
                } catch {
                    throw ValidationError("--user: \(error.message)")
                }
            }
        }

        func run() throws {
            let principal: Principal = admin ? .admin : api ? .world : .user(user ?? "")
            let folder = try data.folder()
            if let user {
                let name = try UserName(user)
                guard try UserStore(folder: folder).exists(name) else {
                    throw RecordError(.unknownItem, "there is no user named '\(name)'; add one with: shop user add \(name)")
                }
            }
            let store = try TokenStore(folder: folder)
            let (token, info) = try store.create(for: principal, label: label)
            do {
                try StandardStreams.print(token.text)
            } catch {
                // A token nobody saw cannot be used: it is not kept, or the message says to revoke it.
                let revoked = (try? store.revoke(label: info.label)) != nil
                let outcome =
                    revoked
                    ? "the token could not be shown, so it was not kept; create one again with standard output on a terminal or a file"
                    : "the token could not be shown, nor revoked: revoke it with: shop token revoke \(info.label)"
                throw RecordError(error.code, "\(error.message); \(outcome)")
            }
            StandardStreams.printError("token '\(info.label)' for \(principal) created; it is not shown again\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens by label (never the tokens themselves).")

        @OptionGroup var data: DataOption

        func run() throws {
            let tokens = try TokenStore(folder: try data.existingFolder()).list()
            let width = max(5, tokens.map(\.label.count).max() ?? 0)
            try StandardStreams.print("label".padding(toLength: width, withPad: " ", startingAt: 0) + "  for")
            for token in tokens {
                try StandardStreams.print(token.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(token.principal)")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke the token with LABEL: a running shop serve refuses it within a second.",
            discussion: "Example: shop token revoke ops"
        )

        @OptionGroup var data: DataOption
        @Argument(help: "The token's label.") var label: String

        func run() throws {
            try TokenStore(folder: try data.existingFolder()).revoke(label: label)
            try StandardStreams.print("token '\(label)' revoked")
        }
    }
}
