import ArgumentParser
import Foundation
import RecordKit

/// `shop key add|list|remove`: the server-to-server keys of a data folder (CloudKit's), with
/// which back-end jobs sign their requests instead of sending a token.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Register, list and remove the service's server-to-server keys.",
        subcommands: [Add.self, List.self, Remove.self]
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
            // A public key in PEM is a few hundred bytes.
            let pem = String(decoding: try FileContents.read(publicKey, maximumBytes: 64 << 10), as: UTF8.self)
            try ServerKeyStore(folder: try data.folder()).add(keyID: keyID, pem: pem)
            try StandardStreams.print("key '\(keyID)' added")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the registered key IDs (their public keys stay in the accounts database).")

        @OptionGroup var data: DataOption

        func run() throws {
            for keyID in try ServerKeyStore(folder: try data.existingFolder()).keyIDs() { try StandardStreams.print(keyID) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the key KEYID: a running shop serve refuses requests signed with it from the next one on.",
            discussion: "Example: shop key remove backend-1"
        )

        @OptionGroup var data: DataOption
        @Argument(help: "The key's ID, as shop key list shows it.") var keyID: String

        func run() throws {
            try ServerKeyStore(folder: try data.existingFolder()).remove(keyID: keyID)
            try StandardStreams.print("key '\(keyID)' removed")
        }
    }
}
