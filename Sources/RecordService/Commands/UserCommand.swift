import ArgumentParser
import Foundation
import RecordKit

/// `shop user add`: the users of a data folder, who log in for a user token and own a private
/// database.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add the service's users.",
        subcommands: [Add.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user; the password is read from the terminal without echo, or from stdin when piped.",
            discussion: """
                Only the password's bcrypt hash is kept. The user logs in with POST /auth/login, or \
                gets a token from: shop token create --user NAME
                Example: printf '%s\\n' "$PASSWORD" | shop user add alice
                """
        )

        @OptionGroup var data: DataOption
        @Argument(help: "The user's name: 1 to 64 letters, digits, '.', '_' or '-'.") var name: String
        @Flag(help: "Let other users find this user with users/discover.") var discoverable = false

        func validate() throws {
            do {
                _ = try UserName(name)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() throws {
            let name = try UserName(name)
            let store = try UserStore(folder: try data.folder())
            guard try !store.exists(name) else {
                throw RecordError(.serverRecordChanged, "there is a user named '\(name)' already; choose another name")
            }
            let password: String
            switch PasswordInput.read(prompt: "password for \(name): ") {
            case .password(let entered): password = entered
            case .ended: throw RecordError(.invalidArguments, "no password was given; nothing was added")
            case .mismatch: throw RecordError(.invalidArguments, "the two passwords differ; nothing was added")
            case .tooLong:
                throw RecordError(
                    .limitExceeded,
                    "the password's line is longer than \(FileContents.size(PasswordInput.maximumLineBytes)) (or has no end); nothing was added; "
                        + "give the password on a line of its own, at most \(UserStore.maximumPasswordLength) bytes")
            }
            try store.add(name, password: password, discoverable: discoverable)
            try StandardStreams.print("user '\(name)' added")
        }
    }
}
