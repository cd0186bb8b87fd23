import Foundation
import RecordKit
import ShopCLI

/// The service rows of the benchmark: the release `shop serve` on loopback under `wrk`, beside
/// PocketBase and datasette-graphql loaded with the same lists and items, in the same run (each
/// row loads the servers one after another, all of them started and warmed up first).
final class ServiceBench {
    let folder: URL
    let dataSet: ServiceDataSet
    /// Seconds of each load run.
    let loadSeconds: Int
    /// Rounds of the read rows (``throughputRounds`` for a full run).
    let rounds: Int
    let shop: ShopService
    let pocketBase: PocketBasePeer?
    let datasette: DatasettePeer?
    private let wrk: Wrk

    /// Creates per `records/modify` request, and the connections writing.
    static let createsPerRequest = 200
    static let writeConnections = 8
    /// Creates per GraphQL mutation.
    static let mutationBatch = 500
    /// The change feed's budget: records per second paged out through `records/changes` (each
    /// record encoded as CloudKit's JSON and decoded by the client) at least this share of the
    /// engine naming them in process.
    static let feedBudget = 0.25
    /// The commit-to-subscriber row's budget for its p99, in seconds.
    static let subscriberLatencyBudget = 0.05
    /// Starts timed per server for the start-to-first-answer row (the median is shown).
    static let starts = 3
    /// Rounds of a full run's read rows at each number of connections: a round loads `/graphql`,
    /// PocketBase and `records/query` one after another, and each row shows the run with the
    /// median rate of its rounds (`--quick`, whose verdicts are indicative only, runs one). A
    /// server's rate moves by a fifth between ten-second runs on this machine; interleaved
    /// rounds let no one lucky or unlucky run decide a ratio.
    static let throughputRounds = 3

    /// `peers`: the folder with the `pocketbase` and `datasette` executables (the virtualenv's
    /// `bin`); without it shop serve runs alone and the rows about PocketBase have no verdict.
    init(folder: URL, dataSet: ServiceDataSet, loadSeconds: Int, throughputRounds rounds: Int, peers: URL?) throws {
        self.folder = folder
        self.dataSet = dataSet
        self.loadSeconds = loadSeconds
        self.rounds = rounds
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        wrk = try Wrk(folder: folder)
        shop = try ShopService(folder: folder.appendingPathComponent("shop"))
        func peer(_ name: String) throws -> String? {
            guard let peers else { return nil }
            let path = peers.appendingPathComponent(name).path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw BenchError("\(path) is missing; Scripts/bench service installs the peers into .venv-bench")
            }
            return path
        }
        pocketBase = try peer("pocketbase").map { PocketBasePeer(folder: folder.appendingPathComponent("pocketbase"), binary: $0) }
        datasette = try peer("datasette").map { DatasettePeer(folder: folder.appendingPathComponent("datasette"), binary: $0) }
    }

    private var targets: [any LoadTarget] { [shop] + [pocketBase as (any LoadTarget)?, datasette].compactMap { $0 } }

    func run() async throws -> [ServiceResult] {
        defer { ServerProcess.stopAll() }
        for target in targets {
            log("loading \(dataSet.items.formatted()) items in \(DataSet.listCount) lists into \(target.name)")
            try FileManager.default.createDirectory(at: target.folder, withIntermediateDirectories: true)
            try await target.load(dataSet)
        }
        for target in targets {
            _ = try await target.start()
            try await target.checkAnswers()
            log("warming up \(target.name)")
            _ = try load(target.canonicalQuery, on: target, connections: 16, seconds: max(1, loadSeconds / 4))
        }
        var results: [ServiceResult] = []
        var p99Row: ServiceResult?
        for connections in [16, 64] {
            var runs: (graphQL: [Wrk.Figures], recordsQuery: [Wrk.Figures], pocketBase: [Wrk.Figures]) = ([], [], [])
            for _ in 0..<rounds {
                runs.graphQL.append(try load(shop.canonicalQuery, on: shop, connections: connections))
                if let pocketBase { runs.pocketBase.append(try load(pocketBase.canonicalQuery, on: pocketBase, connections: connections)) }
                runs.recordsQuery.append(try load(shop.recordsQuery, on: shop, connections: connections))
            }
            let graphQL = try Self.medianRun(runs.graphQL)
            let recordsQuery = try Self.medianRun(runs.recordsQuery)
            let pocketBase = pocketBase == nil ? nil : try Self.medianRun(runs.pocketBase)
            // A few hundred requests a second, far from any verdict: one run.
            let datasette = try datasette.map { try load($0.canonicalQuery, on: $0, connections: connections) }
            results.append(
                ServiceResult(
                    workload: "the canonical query (a list's items by name, 50) through POST /graphql, \(connections) connections",
                    unit: .requestsPerSecond, shop: .init(graphQL), pocketBase: pocketBase.map(ServiceResult.Figure.init),
                    datasette: datasette.map(ServiceResult.Figure.init), budget: .timesPocketBase(5)
                ))
            results.append(
                ServiceResult(
                    workload: "the same through records/query, \(connections) connections",
                    unit: .requestsPerSecond, shop: .init(recordsQuery), pocketBase: pocketBase.map(ServiceResult.Figure.init), budget: .timesPocketBase(5)
                ))
            if connections == 16 {
                p99Row = ServiceResult(
                    workload: "p99 latency of the canonical query at 16 connections", unit: .seconds, shop: .init(graphQL.p99),
                    pocketBase: pocketBase.map { .init($0.p99) }, datasette: datasette.map { .init($0.p99) }, budget: .below(0.010)
                )
            }
        }
        results.append(try p99Row.unwrapped("the p99 row"))
        let writes = [
            shop.recordsModify(creates: Self.createsPerRequest),
            shop.graphQLCreates(Self.mutationBatch, listForm: false),
            shop.graphQLCreates(Self.mutationBatch, listForm: true),
        ]
        try await shop.checkWrites(writes)
        let itemsBefore = try RecordDatabase(path: shop.databasePath, bootstrap: try ShoppingLists.schema).count(matching: Query("Items"))
        let written = try writes.map { try load($0, on: shop, connections: Self.writeConnections) }
        let (modify, aliased, listForm) = (written[0], written[1], written[2])
        let feed = try await ChangeFeedPaging.service(shop, duration: Double(loadSeconds))
        log(
            String(
                format: "shop serve records/changes, %d a page: %.0f records/s over %d pages; %@", ChangeFeedPaging.pageSize, feed.recordsPerSecond,
                feed.pageSeconds.count, shop.memoryAccount))
        let live = try await LiveLatency.run(shop, duration: Double(loadSeconds))
        let (latency, write) = (Timing.percentiles(live.latencies), Timing.percentiles(live.writeRoundTrips))
        log(
            "shop serve commit to subscriber, \(live.commits) commits to \(LiveLatency.subscribers) subscribers: p50 \(formatDuration(latency.p50)), "
                + "p99 \(formatDuration(latency.p99)) (the writes' own round trip: p50 \(formatDuration(write.p50)), p99 \(formatDuration(write.p99))); "
                + shop.memoryAccount)
        var memory: [String: Double] = [:]
        for target in targets { memory[target.name] = try target.server.unwrapped("\(target.name)'s process").memory().peak }
        for target in targets { target.stop() }
        let created = modify.requests * Self.createsPerRequest + (aliased.requests + listForm.requests) * Self.mutationBatch
        let itemsAfter = try RecordDatabase(path: shop.databasePath, bootstrap: try ShoppingLists.schema).count(matching: Query("Items"))
        // Requests still in flight when a load ends may have been applied without being counted.
        try verify(
            itemsAfter - itemsBefore >= created, "the write loads created every record they were answered for (\(itemsAfter - itemsBefore) of \(created))")
        results.append(
            ServiceResult(
                workload: "records/modify with \(Self.createsPerRequest) creates per request, \(Self.writeConnections) connections",
                unit: .recordsPerSecond, shop: .init(modify.requestsPerSecond * Double(Self.createsPerRequest), p50: modify.p50, p99: modify.p99),
                engine: .init(try engineModifyRate(batch: Self.createsPerRequest)), budget: .timesEngine(0.5)
            ))
        let engineRate = try engineModifyRate(batch: Self.mutationBatch)
        for (form, figures) in [
            ("\(Self.mutationBatch) aliased createItems fields", aliased), ("one createManyItems(records:) of \(Self.mutationBatch)", listForm),
        ] {
            results.append(
                ServiceResult(
                    workload: "a GraphQL mutation of \(form) through POST /graphql, \(Self.writeConnections) connections",
                    unit: .recordsPerSecond, shop: .init(figures.requestsPerSecond * Double(Self.mutationBatch), p50: figures.p50, p99: figures.p99),
                    engine: .init(engineRate), budget: .timesEngine(0.5)
                ))
        }
        let engineFeed = try await ChangeFeedPaging.engine(path: shop.databasePath, duration: Double(loadSeconds))
        log(String(format: "engine changePage in process, %d a page: %.0f records/s", ChangeFeedPaging.pageSize, engineFeed.recordsPerSecond))
        results.append(
            ServiceResult(
                workload: "records/changes paged out from no token, resultsLimit \(ChangeFeedPaging.pageSize), one page after another",
                unit: .recordsPerSecond, shop: .init(feed.recordsPerSecond, p50: feed.percentiles.p50, p99: feed.percentiles.p99),
                engine: .init(engineFeed.recordsPerSecond), engineWork: "changePage", budget: .timesEngine(Self.feedBudget)
            ))
        results.append(
            ServiceResult(
                workload: "commit to subscriber, p99: \(LiveLatency.subscribers) SSE subscriptions, \(LiveLatency.commitsPerSecond) commits/s "
                    + "through records/modify (write sent to event; the write's own round trip: p50 \(formatDuration(write.p50)))",
                unit: .seconds, shop: .init(latency.p99, p50: latency.p50, p99: latency.p99), budget: .below(Self.subscriberLatencyBudget)
            ))
        results.append(
            ServiceResult(
                workload: "resident memory under the load above (peak, VmHWM)", unit: .megabytes, shop: .init(memory[shop.name] ?? .nan),
                pocketBase: pocketBase.flatMap { memory[$0.name] }.map { .init($0) }, datasette: datasette.flatMap { memory[$0.name] }.map { .init($0) },
                budget: .below(128)
            ))
        results += try await startRows()
        return results
    }

    /// The run with the median rate of `runs`.
    private static func medianRun(_ runs: [Wrk.Figures]) throws -> Wrk.Figures {
        let sorted = runs.sorted { $0.requestsPerSecond < $1.requestsPerSecond }
        guard !sorted.isEmpty else { throw BenchError("no load run to take the median of") }
        return sorted[sorted.count / 2]
    }

    /// One `wrk` run of `request` against `target`, logged.
    private func load(_ request: Wrk.Request, on target: any LoadTarget, connections: Int, seconds: Int? = nil) throws -> Wrk.Figures {
        let figures = try wrk.run(request, url: target.baseURL, connections: connections, seconds: seconds ?? loadSeconds)
        log(
            String(
                format: "%@ %@ %@, %d connections: %.0f requests/s, p50 %@, p99 %@; %@", target.name, request.method, String(request.path.prefix(40)),
                connections, figures.requestsPerSecond, formatDuration(figures.p50), formatDuration(figures.p99), target.memoryAccount))
        return figures
    }

    /// Records per second of the engine's own `modify`, in process, in batches of the same
    /// creates (`batch` a batch) on the same database (the service stopped).
    private func engineModifyRate(batch size: Int) throws -> Double {
        let database = try RecordDatabase(path: shop.databasePath, bootstrap: try ShoppingLists.schema)
        let batches = max(10, loadSeconds * 2000 / size)
        let started = ContinuousClock.now
        for batch in 0..<batches {
            try database.modify(
                (0..<size).map { index in
                    .create(
                        Record(
                            "Items", recordName: "engine\(size)-\(batch)-\(index)",
                            fields: [
                                "name": .string("\(DataSet.itemName(index)) e\(size)-\(batch)"),
                                "list": .reference(Reference(DataSet.listRecordName((batch * 7) % DataSet.listCount), action: .deleteSelf)),
                            ]))
                })
        }
        let rate = Double(batches * size) / seconds(since: started)
        log(String(format: "engine modify in process, %d a batch: %.0f records/s", size, rate))
        return rate
    }

    /// Start to first answered canonical query, the median of a few starts per server; shop's
    /// again on a data folder with no items, to show it does not grow with the data.
    private func startRows() async throws -> [ServiceResult] {
        func medianStart(_ target: any LoadTarget) async throws -> Double {
            var samples: [Double] = []
            for _ in 0..<Self.starts {
                samples.append(try await target.start())
                target.stop()
            }
            log("\(target.name) start to first answer: \(samples.map(formatDuration))")
            return Timing(samples: samples.sorted()).median
        }
        let shopStart = try await medianStart(shop)
        var peerStarts: [String: Double] = [:]
        for peer in targets.dropFirst() { peerStarts[peer.name] = try await medianStart(peer) }
        let empty = try ShopService(folder: folder.appendingPathComponent("empty"))
        try FileManager.default.createDirectory(at: empty.folder, withIntermediateDirectories: true)
        try empty.load(ServiceDataSet(items: 0))
        let emptyStart = try await medianStart(empty)
        return [
            ServiceResult(
                workload: "start to first answered request (the canonical query), \(dataSet.items.formatted()) items", unit: .seconds,
                shop: .init(shopStart), pocketBase: pocketBase.flatMap { peerStarts[$0.name] }.map { .init($0) },
                datasette: datasette.flatMap { peerStarts[$0.name] }.map { .init($0) }, budget: .below(0.5)
            ),
            ServiceResult(workload: "the same on a data folder with no items", unit: .seconds, shop: .init(emptyStart), budget: .below(0.5)),
        ]
    }
}
