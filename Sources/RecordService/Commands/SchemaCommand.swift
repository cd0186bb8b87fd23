import ArgumentParser
import Foundation
import RecordKit

/// `shop schema deploy`: the service's one schema command (the REPL has the others).
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Deploy the development environment's schema to production.",
        subcommands: [Deploy.self]
    )

    struct Deploy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply development's schema to production, additively; refuse, naming it, what is not additive.",
            discussion: "Example: shop schema deploy --data ~/.local/share/shop"
        )

        @OptionGroup var data: DataOption
        @Flag(
            name: .customLong("defer-rules"),
            help: "Apply the rest when production's records break a new rule yet (NOT EMPTY, UNIQUE, a reference's type); deploy again once they follow it.")
        var deferRules = false

        func run() async throws {
            let folder = try data.existingFolder()
            let developmentPath = folder.publicDatabasePath(.development)
            guard FileManager.default.fileExists(atPath: developmentPath) else {
                throw RecordError(
                    .invalidArguments,
                    "there is no development database at \(developmentPath), so nothing to deploy; pass --data DIR naming the data folder shop serve uses"
                )
            }
            let development = try folder.openPublicDatabase(.development)
            let production = try folder.openPublicDatabase(.production)
            let outcome = try await SchemaDeployment.deploy(from: development, to: production, deferringRules: deferRules)
            if outcome.applied.isEmpty && outcome.deferred.isEmpty {
                try StandardStreams.print("production already has development's schema")
            }
            for change in outcome.applied {
                try StandardStreams.print(change.description)
            }
            for (change, reason) in outcome.deferred {
                try StandardStreams.print("deferred: \(change.description): \(reason)")
            }
        }
    }
}
