import Foundation
import RecordKit
import ShopCLI

/// The change-feed row: a client paging `records/changes` of the public database out from no
/// token, one page after another (each page's `syncToken` asks for the next, so a feed is read
/// by one connection), beside the engine's own `changePage` in process over the same database.
enum ChangeFeedPaging {
    /// Records per page (`resultsLimit`).
    static let pageSize = 200

    /// What one paging run read: records, pages and the seconds each page took.
    struct Run {
        var records = 0
        var pageSeconds: [Double] = []
        var seconds = 0.0

        var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }

        /// Median and 99th percentile of the pages' latencies.
        var percentiles: (p50: Double, p99: Double) { Timing.percentiles(pageSeconds) }
    }

    /// A `records/changes` answer, read as a client reads it: every record decoded (its name
    /// at least), the token and whether more are coming.
    private struct Page: Decodable {
        struct Record: Decodable {
            var recordName: String
            var recordType: String
        }
        var records: [Record]
        var syncToken: String
        var moreComing: Bool
    }

    /// Pages `records/changes` of `service`'s public database from no token for about
    /// `duration` seconds (or until the feed ends), requiring every page but the last to hold
    /// records.
    static func service(_ service: ShopService, duration: Double) async throws -> Run {
        try await pages(duration: duration) { (token: String?) in
            let tokenMember = token.map { ",\"syncToken\":\"\($0)\"" } ?? ""
            let response = try await service.send(
                path: "records/changes", body: "{\"zoneID\":{\"zoneName\":\"_defaultZone\"},\"resultsLimit\":\(pageSize)\(tokenMember)}")
            let page = try JSONDecoder().decode(Page.self, from: response.body)
            try verify(!page.records.isEmpty || !page.moreComing, "records/changes answers records while more are coming")
            return (page.records.count, page.syncToken, page.moreComing)
        }
    }

    /// The same paging with the engine's own `changePage`, in process, on the database at `path`
    /// (the service stopped): the records it names per second.
    static func engine(path: String, duration: Double) async throws -> Run {
        let database = try RecordDatabase(path: path, bootstrap: try ShoppingLists.schema)
        return try await pages(duration: duration) { (token: ChangeToken?) in
            let page = try database.changePage(ChangeFeedRequest(after: token, limit: pageSize))
            return (page.entries.count, page.next, page.moreComing)
        }
    }

    /// Reads pages with `page` (given the previous page's token, none at first) until the feed
    /// ends or `duration` seconds have passed, timing each.
    private static func pages<Token>(
        duration: Double, _ page: (Token?) async throws -> (records: Int, next: Token, moreComing: Bool)
    ) async throws -> Run {
        var run = Run()
        var token: Token?
        let started = ContinuousClock.now
        repeat {
            let pageStarted = ContinuousClock.now
            let read = try await page(token)
            run.pageSeconds.append(seconds(since: pageStarted))
            run.records += read.records
            token = read.next
            if !read.moreComing { break }
        } while seconds(since: started) < duration
        run.seconds = seconds(since: started)
        return run
    }
}
