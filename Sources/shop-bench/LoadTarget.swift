import Foundation

/// A server the service rows load with `wrk`: `shop serve` or a peer, filled with the same data.
protocol LoadTarget: AnyObject {
    /// How the table names it.
    var name: String { get }
    /// Where its data and log live.
    var folder: URL { get }
    /// Where it listens while started (on 127.0.0.1).
    var baseURL: URL { get }
    var server: ServerProcess? { get }
    /// The canonical query in this server's own spelling (a list's items by name, 50).
    var canonicalQuery: Wrk.Request { get }

    /// Fills the server's storage with `dataSet` (starting the server if it loads through it).
    func load(_ dataSet: ServiceDataSet) async throws
    /// Starts the server; returns the seconds from starting its process to the first answered
    /// canonical query.
    func start() async throws -> Double
    /// Checks the server answers the canonical query with the list's first 50 items by name.
    func checkAnswers() async throws
    func stop()
}

extension LoadTarget {
    /// The server's resident memory now and its peak so far, for the log after each load (so the
    /// peak row can be traced to the load that made it); empty when it is not running.
    var memoryAccount: String {
        guard let memory = try? server?.memory() else { return "" }
        return String(format: "resident %.1f MB, peak %.1f MB", memory.resident, memory.peak)
    }
}

/// The service rows' data: 100 lists and their items, as the engine rows make them (names,
/// recordNames, which item goes in which list), in every server.
struct ServiceDataSet {
    /// Every item; list `i % 100` holds item `i`.
    var items: Int

    static let full = ServiceDataSet(items: 1_000_000)
    static let quick = ServiceDataSet(items: 10_000)

    static var listRecordNames: [String] { (0..<DataSet.listCount).map(DataSet.listRecordName) }
}
