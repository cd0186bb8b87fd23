import Foundation
import RecordKit
import TestSupport
import Testing

/// Four `shop -f` processes write one database file at the same time while other processes
/// query it: every write lands (no "database is locked"), every query sees a consistent
/// snapshot, and the final counts are exact.
///
/// Each round starts on a new file that all the processes create together, which is where
/// SQLite reports busy without waiting (switching the file to WAL) and where two processes can
/// race to set up the engine's tables.
@Suite("Concurrent writers", .serialized)
struct ConcurrentWriterTests {
    static let rounds = 6
    static let writers = 4
    /// Single-item commands per writer per round.
    static let itemsPerWriter = 40
    /// Every this many items, a writer also creates a list with ``batchItems`` items in one
    /// GraphQL mutation, which readers must never see half done.
    static let batchEvery = 8
    static let batchItems = 5
    static let query = "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name } } }"

    @Test func writersSharingOneFileAllLandAndReadersSeeWholeTransactions() throws {
        var writes = 0
        var snapshots = 0
        for round in 1...Self.rounds {
            let sandbox = Sandbox()
            let scripts = try (1...Self.writers).map { writer in
                try sandbox.file("writer-\(writer).shop", Self.script(writer: writer).joined(separator: "\n") + "\n")
            }
            let reads = try sandbox.file("reads.graphql", Array(repeating: Self.query, count: 5).joined(separator: "\n") + "\n")
            var children: [ChildProcess] = []
            for script in scripts {
                guard let child = try ShopBinary.start(["--db", sandbox.database, "-f", script]) else { return }
                children.append(child)
            }
            // Readers query the file for as long as the writers run (and once more after).
            var readerRuns: [ProcessRun] = []
            repeat {
                let readers = try (0..<2).compactMap { _ in try ShopBinary.start(["--db", sandbox.database, "--json", "-f", reads]) }
                readerRuns += try readers.map { try $0.finish() }
            } while children.contains(where: \.isRunning)

            for (writer, child) in children.enumerated() {
                let run = try child.finish()
                #expect(run.status == 0 && run.errors.isEmpty, "round \(round), writer \(writer + 1): \(run.errors)")
            }
            for run in readerRuns {
                #expect(run.status == 0 && run.errors.isEmpty, "round \(round), reader: \(run.errors)")
                for line in run.output.split(separator: "\n") {
                    let problems = Self.inconsistencies(inResponse: String(line))
                    #expect(problems.isEmpty, "round \(round), a reader saw: \(problems)")
                    snapshots += 1
                }
            }
            let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
            let batches = Self.itemsPerWriter / Self.batchEvery
            #expect(try database.count(matching: Query("Lists")) == Self.writers * (1 + batches))
            #expect(try database.count(matching: Query("Items")) == Self.writers * (Self.itemsPerWriter + batches * Self.batchItems))
            #expect(try DatabaseAudit.problems(at: sandbox.database).isEmpty)
            writes += Self.writers * (1 + Self.itemsPerWriter + batches)
        }
        print("concurrent writers: \(Self.rounds) rounds of \(Self.writers) writers, \(writes) writes landed, \(snapshots) snapshots read consistent")
    }

    /// Writer `writer`'s commands: its own list, then items one command each, and every
    /// ``batchEvery`` items a new list with its items in one mutation.
    static func script(writer: Int) -> [String] {
        var lines = ["list add w\(writer)"]
        for item in 1...itemsPerWriter {
            lines.append("item add w\(writer) i\(String(format: "%03d", item))")
            if item.isMultiple(of: batchEvery) {
                let list = "w\(writer)-batch\(item)"
                let items = (1...batchItems).map { index in
                    #"i\#(index): createItems(fields: {name: "b\#(index)", list: {recordName: "\#(list)", action: DELETE_SELF}}) { recordName }"#
                }
                lines.append(
                    #"mutation { list: createLists(recordName: "\#(list)", fields: {name: "\#(list)"}) { recordName } \#(items.joined(separator: " ")) }"#)
            }
        }
        return lines
    }

    /// What is wrong with one reader's response: a batch list without all its items, or a
    /// writer's list whose items are not the first n it added (a gap means a torn snapshot).
    static func inconsistencies(inResponse json: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let data = object["data"] as? [String: Any], let lists = data["Lists"] as? [[String: Any]]
        else { return ["not a data response: \(json.prefix(200))"] }
        var problems: [String] = []
        for list in lists {
            let name = list["name"] as? String ?? "?"
            let items = (list["Items"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            if name.contains("-batch") {
                if items != (1...batchItems).map({ "b\($0)" }) { problems.append("\(name) holds \(items)") }
            } else if items != (0..<items.count).map({ "i" + String(format: "%03d", $0 + 1) }) {
                problems.append("\(name) holds \(items)")
            }
        }
        return problems
    }
}
