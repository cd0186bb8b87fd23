import ArgumentParser
import CSQLite
import Foundation

/// `shop-bench`: every budgeted workload of docs/bench.md and more, engine beside raw SQLite.
///
/// Asynchronous because the query language's `execute` is: each workload runs in the command's
/// task, so awaiting the engine costs no bridge of the benchmark's own.
@main
struct ShopBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop-bench",
        abstract: "Benchmarks shop against SQLite's C API doing the same work.",
        subcommands: [Run.self, Service.self, StreamAllItemsCommand.self],
        defaultSubcommand: Run.self
    )

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the workloads and print the table.")

        @Flag(help: "A small data set that runs in well under a minute; its verdicts are indicative only.")
        var quick = false

        @Flag(help: "Print the results as JSON instead of a table.")
        var json = false

        @Option(help: "Folder for the benchmark databases (default: a new temporary folder, removed afterwards).")
        var folder: String?

        @Option(help: "Run only the workloads whose short name contains this text (e.g. \"save\"; several texts separated by commas), for profiling.")
        var only: String?

        func run() async throws {
            let location =
                folder.map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("shop-bench-\(UUID().uuidString)")
            defer { if folder == nil { try? FileManager.default.removeItem(at: location) } }
            let bench = try Bench(sizes: quick ? .quick : .full, folder: location)
            var results: [Result] = []
            let selected = only.map { $0.split(separator: ",").map(String.init) }
            for (name, workload) in bench.workloads where selected.map({ $0.contains(where: name.contains) }) ?? true {
                log(name)
                results.append(try await workload())
            }
            let machine = Report.machine(sqliteVersion: String(cString: sqlite3_libversion()))
            print(json ? try Report.json(results, machine: machine, quick: quick) : Report.table(results, machine: machine, quick: quick))
        }
    }

    struct Service: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "service",
            abstract: "Run the service rows: shop serve under wrk beside PocketBase and datasette-graphql, on 127.0.0.1.",
            discussion: "Needs wrk, and shop built beside shop-bench. Scripts/bench service installs wrk and the peers and passes --peers."
        )

        @Flag(help: "A small data set and 1-second loads, for checking that every row runs.")
        var quick = false

        @Flag(help: "Print the results as JSON instead of a table.")
        var json = false

        @Option(help: "Folder for the data folders and logs (default: a new temporary folder, removed afterwards).")
        var folder: String?

        @Option(help: ArgumentHelp("The folder with the peers' pocketbase and datasette executables (without it, shop serve runs alone).", valueName: "DIR"))
        var peers: String?

        @Option(help: "Seconds of each load run (default 10, or 1 with --quick).")
        var seconds: Int?

        func validate() throws {
            if let seconds, !(1...60).contains(seconds) { throw ValidationError("--seconds takes 1 to 60, not \(seconds)") }
        }

        func run() async throws {
            let location =
                folder.map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("shop-bench-service-\(UUID().uuidString)")
            defer { if folder == nil { try? FileManager.default.removeItem(at: location) } }
            let signals = ServerProcess.stopAllOnSignals()
            defer { withExtendedLifetime(signals) {} }
            let bench = try ServiceBench(
                folder: location, dataSet: quick ? .quick : .full, loadSeconds: seconds ?? (quick ? 1 : 10),
                throughputRounds: quick ? 1 : ServiceBench.throughputRounds, peers: peers.map { URL(fileURLWithPath: $0) }
            )
            let results = try await bench.run()
            let machine = Report.machine(sqliteVersion: String(cString: sqlite3_libversion())) + ", load average " + Report.loadAverage()
            print(json ? try Report.json(results, machine: machine, quick: quick) : Report.serviceTable(results, machine: machine, quick: quick))
        }
    }

    struct StreamAllItemsCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stream-all-items", abstract: "Internal: the memory workload's child.", shouldDisplay: false)

        @Argument var path: String

        func run() throws {
            try StreamAllItems.run(path: path)
        }
    }
}

extension Bench {
    /// Every workload, in table order: the seven budgeted ones first (docs/bench.md).
    var workloads: [(String, () async throws -> Result)] {
        [
            ("save batch", saveBatch),
            ("canonical query", canonicalQuery),
            ("language query, text seen before", languageQuerySeen),
            ("language query, new text", languageQueryNew),
            ("cascade delete", cascadeDelete),
            ("shop items", shopItems),
            ("streaming memory", streamingMemory),
            ("fetch by recordName", fetchByRecordName),
            ("update each", updateEach),
            ("paginate", paginate),
            ("shop script", shopScript),
            ("shop script through --server", shopScriptThroughServer),
            ("language lists with items", languageListsWithItems),
            ("language aliased creates", languageAliasedCreates),
            ("language list creates", languageListCreates),
            ("shop import", shopImport),
            ("shop export memory", shopExportMemory),
        ]
    }
}
