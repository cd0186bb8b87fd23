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
            let changes = try await SchemaDeployment.deploy(from: development, to: production)
            if changes.isEmpty {
                print("production already has development's schema")
            }
            for change in changes {
                print(change.description)
            }
        }
    }
}
