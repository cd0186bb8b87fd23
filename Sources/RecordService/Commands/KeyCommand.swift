import ArgumentParser
import Foundation

/// `shop key add`: the server-to-server keys of a data folder (CloudKit's), with which back-end
/// jobs sign their requests instead of sending a token.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Register the service's server-to-server keys.",
        subcommands: [Add.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register the P-256 public key in PUBLIC.pem under KEYID.",
            discussion: """
                Requests signed with the matching private key (CloudKit's X-Apple-CloudKit-Request-* \
                headers) act as the owner of the public databases.
                Example: openssl ecparam -name prime256v1 -genkey -noout -out key.pem && \
                openssl ec -in key.pem -pubout -out public.pem && shop key add backend-1 public.pem
                """
        )

        @OptionGroup var data: DataOption
        @Argument(help: "The key's ID, sent in X-Apple-CloudKit-Request-KeyID.") var keyID: String
        @Argument(help: "The public key, PEM.") var publicKey: String

        func run() throws {
            let pem: String
            do {
                pem = try String(contentsOfFile: publicKey, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(publicKey): \(error.localizedDescription)")
            }
            try ServerKeyStore(folder: try data.folder()).add(keyID: keyID, pem: pem)
            print("key '\(keyID)' added")
        }
    }
}
