import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// The commit-to-subscriber row: subscribers hold a GraphQL subscription over server-sent
/// events to the newest item of a list of their own while a writer creates one item in it at a
/// steady rate through `records/modify`, one request a commit on one kept-alive connection. For
/// each commit and each subscriber, the time from the write being sent to the first event that
/// shows it — an upper bound of commit to subscriber, since it includes the write's own trip.
enum LiveLatency {
    static let subscribers = 16
    static let commitsPerSecond = 100
    /// The list the subscribers watch and the writer fills, created first (its items are only
    /// the writer's, so a subscription's newest item is the newest commit).
    static let list = "live-list"

    /// What one run measured, in seconds.
    struct Run {
        /// Write sent to event received, one per commit per subscriber.
        var latencies: [Double]
        /// Write sent to its answer received.
        var writeRoundTrips: [Double]
        var commits: Int
    }

    /// When each commit's write was sent, and each subscriber's latencies.
    private final class Ledger: Sendable {
        private struct State {
            var sent: [ContinuousClock.Instant] = []
            var seen: [Int]
            var latencies: [Double] = []
            var ready = 0
        }
        private let state: Mutex<State>

        init(subscribers: Int) { state = Mutex(State(seen: Array(repeating: -1, count: subscribers))) }

        func subscriberReady() { state.withLock { $0.ready += 1 } }
        var readySubscribers: Int { state.withLock { $0.ready } }

        /// Records that the next commit (they are numbered from 0, in order) was sent at `instant`.
        func sent(at instant: ContinuousClock.Instant) { state.withLock { $0.sent.append(instant) } }

        /// `subscriber` received an event showing commits up to `newest`: every commit it had
        /// not seen yet arrived now.
        func received(_ subscriber: Int, newest: Int, at instant: ContinuousClock.Instant) {
            state.withLock { state in
                guard newest > state.seen[subscriber], newest < state.sent.count else { return }
                for commit in (state.seen[subscriber] + 1)...newest {
                    state.latencies.append(seconds(from: state.sent[commit], to: instant))
                }
                state.seen[subscriber] = newest
            }
        }

        func allSaw(_ newest: Int) -> Bool { state.withLock { $0.seen.allSatisfy { $0 >= newest } } }
        var latencies: [Double] { state.withLock { $0.latencies } }
    }

    /// Runs the subscribers and the writer against `service`'s public database for `duration` seconds of writes.
    static func run(_ service: ShopService, duration: Double) async throws -> Run {
        // A connection for each subscriber and one for the writer (the shared client keeps 8).
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: subscribers + 1)))
        do {
            let run = try await run(service, client: client, duration: duration)
            try await client.shutdown()
            return run
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private static func run(_ service: ShopService, client: HTTPClient, duration: Double) async throws -> Run {
        _ = try await service.send(
            path: "records/modify",
            body: """
                {"operations":[{"operationType":"forceReplace","record":{"recordName":"\(list)","recordType":"Lists",\
                "fields":{"name":{"value":"\(list)"}}}}]}
                """)
        let (graphQL, token) = (try service.baseURL.withPath("/graphql").absoluteString, service.token)
        let modify = try service.baseURL.withPath("/database/1/\(ShopService.container)/development/public/records/modify").absoluteString
        let ledger = Ledger(subscribers: subscribers)
        let document = "subscription { Items(where: {list: {eq: \\\"\(list)\\\"}}, sort: [{name: DESC}], limit: 1) { name } }"
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for subscriber in 0..<subscribers {
                group.addTask {
                    try await subscribe(client, url: graphQL, token: token, body: "{\"query\":\"\(document)\"}", subscriber: subscriber, ledger: ledger)
                }
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while ledger.readySubscribers < subscribers {
                guard ContinuousClock.now < deadline else { throw BenchError("\(subscribers) subscribers were not all answered within 30 s") }
                try await Task.sleep(for: .milliseconds(5))
            }
            let roundTrips = try await write(client, url: modify, token: token, duration: duration, ledger: ledger)
            let newest = roundTrips.count - 1
            let seenDeadline = ContinuousClock.now + .seconds(10)
            while !ledger.allSaw(newest) {
                guard ContinuousClock.now < seenDeadline else {
                    throw BenchError("not every subscriber saw the last of \(roundTrips.count) commits within 10 s")
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            group.cancelAll()
            return Run(latencies: ledger.latencies, writeRoundTrips: roundTrips, commits: roundTrips.count)
        }
    }

    /// One subscriber: reads the event stream, telling `ledger` of its first event and of the
    /// newest commit each later event shows.
    private static func subscribe(_ client: HTTPClient, url: String, token: String, body: String, subscriber: Int, ledger: Ledger) async throws {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "text/event-stream")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(600))
        guard response.status == .ok else { throw BenchError("the subscription was answered \(response.status)") }
        var pending = ""
        var first = true
        for try await chunk in response.body {
            let arrived = ContinuousClock.now
            pending += String(buffer: chunk)
            while let end = pending.range(of: "\n") {
                let line = pending[..<end.lowerBound]
                pending = String(pending[end.upperBound...])
                guard line.hasPrefix("data:") else { continue }
                if first {
                    first = false
                    ledger.subscriberReady()
                } else if let newest = commitNumber(in: line) {
                    ledger.received(subscriber, newest: newest, at: arrived)
                }
            }
        }
    }

    /// The writer: one create every 1/``commitsPerSecond`` seconds for `duration` seconds, each
    /// sent when its turn comes (at once when behind); the round trip of each.
    private static func write(_ client: HTTPClient, url: String, token: String, duration: Double, ledger: Ledger) async throws -> [Double] {
        let count = max(10, Int(duration * Double(commitsPerSecond)))
        let started = ContinuousClock.now
        var roundTrips: [Double] = []
        for number in 0..<count {
            try await Task.sleep(until: started + .microseconds(number * 1_000_000 / commitsPerSecond))
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(
                ByteBuffer(
                    string: """
                        {"operations":[{"operationType":"create","record":{"recordName":"live-\(number)","recordType":"Items",\
                        "fields":{"name":{"value":"\(itemName(number))"},"list":{"value":{"recordName":"\(list)","action":"DELETE_SELF"}}}}}]}
                        """))
            let sent = ContinuousClock.now
            ledger.sent(at: sent)
            let response = try await client.execute(request, timeout: .seconds(30))
            let answer = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok, !String(buffer: answer).contains("serverErrorCode") else {
                throw BenchError("a live-latency write was answered \(response.status): \(String(buffer: answer).prefix(300))")
            }
            roundTrips.append(seconds(since: sent))
        }
        return roundTrips
    }

    /// The name of commit `number`'s item: zero-padded, so the newest sorts last.
    private static func itemName(_ number: Int) -> String {
        let digits = String(number)
        return "live " + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The commit number of the item an event's `data:` line shows, if it shows one.
    private static func commitNumber(in line: Substring) -> Int? {
        guard let marker = line.range(of: "live ") else { return nil }
        return Int(line[marker.upperBound...].prefix { $0.isNumber })
    }
}
