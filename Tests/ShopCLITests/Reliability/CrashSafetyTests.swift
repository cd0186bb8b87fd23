import Foundation
import RecordKit
import TestSupport
import Testing

/// `shop` killed with SIGKILL at random moments — starting up, in the middle of a batch, while
/// committing — leaves a database that opens, is intact, and holds every transaction wholly or
/// not at all (a batch is atomic; a failed command changes nothing).
///
/// Each test kills 50 children in a row on one database file, each picking up where the last
/// one was killed, with delays drawn from a fixed seed (the moments still vary with the
/// machine's speed). After every kill ``DatabaseAudit`` checks the file.
@Suite("Crash safety: shop killed at random moments")
struct CrashSafetyTests {
    static let kills = 50

    // MARK: A large batch

    /// Items per batch: each batch is one GraphQL mutation that deletes the previous batch's
    /// list (cascading to its items) and creates a new list with this many items.
    static let batchSize = 250

    @Test func aBatchKilledAtAnyMomentIsWhollyPresentOrWhollyAbsent() throws {
        let sandbox = Sandbox()
        var random = SplitMix64(state: 0xC0FFEE)
        var nextBatch = 1
        var committed = 0
        var killedWhileRunning = 0
        for round in 1...Self.kills {
            let current = try Self.presentBatch(in: sandbox.database)
            // Four batches in a row, each replacing the one before: the child is still busy
            // with one of them when the kill comes.
            let batches = Array(nextBatch..<nextBatch + 4)
            nextBatch += batches.count
            let mutations = zip([current] + batches.map(Optional.some), batches).map { previous, batch in
                Self.mutation(replacing: previous, with: batch)
            }
            let script = try sandbox.file("batches-\(round).graphql", mutations.joined(separator: "\n") + "\n")
            guard let child = try ShopBinary.start(["--db", sandbox.database, "-f", script]) else { return }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.5, using: &random))
            if child.isRunning { killedWhileRunning += 1 }
            child.kill()

            let problems = try DatabaseAudit.problems(at: sandbox.database)
            #expect(problems.isEmpty, "after kill \(round): \(problems.prefix(5))")
            let present = try Self.presentBatch(in: sandbox.database)
            if let present, present != current {
                #expect(batches.contains(present), "after kill \(round): batch \(present) was not being written")
                committed += batches.firstIndex(of: present).map { $0 + 1 } ?? 0
            }
        }
        print(
            "crash safety (batches): \(Self.kills) kills, \(killedWhileRunning) while shop was running; \(committed) batches of \(Self.batchSize) items committed"
        )
    }

    /// The batch whose list is in the database, if any, after checking it is whole: at most one
    /// list, with exactly its own ``batchSize`` items, and no item of any other batch.
    static func presentBatch(in path: String) throws -> Int? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let database = try RecordDatabase(path: path, bootstrap: .shopping)
        let lists = try database.records(matching: Query("Lists")).map(\.recordName)
        let items = try database.records(matching: Query("Items")).map(\.recordName)
        #expect(lists.count <= 1, "several batch lists are present: \(lists)")
        guard let list = lists.first else {
            #expect(items.isEmpty, "\(items.count) items are present without their batch's list")
            return nil
        }
        #expect(items.count == batchSize, "batch \(list) has \(items.count) items, not \(batchSize)")
        #expect(items.allSatisfy { $0.hasPrefix(list + "-") }, "items of other batches beside \(list)")
        return Int(list.dropFirst())
    }

    /// One GraphQL mutation (one transaction): delete `previous`'s list, create list `batch`
    /// and its items.
    static func mutation(replacing previous: Int?, with batch: Int) -> String {
        var fields: [String] = []
        if let previous {
            fields.append(#"gone: deleteLists(recordName: "b\#(previous)") { deleted }"#)
        }
        fields.append(#"list: createLists(recordName: "b\#(batch)", fields: {name: "batch \#(batch)"}) { recordName }"#)
        for item in 0..<batchSize {
            fields.append(
                #"i\#(item): createItems(recordName: "b\#(batch)-\#(item)", fields: {name: "item \#(item) of batch \#(batch), with some text to fill pages", list: {recordName: "b\#(batch)", action: DELETE_SELF}}) { recordName }"#
            )
        }
        return "mutation { " + fields.joined(separator: " ") + " }"
    }

    // MARK: A long script of single-record commands

    @Test func aScriptKilledAtAnyMomentLeavesExactlyTheCommandsThatFinished() throws {
        let sandbox = Sandbox()
        var random = SplitMix64(state: 0x5C1A1B7)
        var model = ShoppingModel()
        var finishedCommands = 0
        var killedWhileRunning = 0
        for round in 1...Self.kills {
            // Far more commands than the child can run before the kill comes.
            let script = model.script(count: 400, using: &random)
            let file = try sandbox.file("commands-\(round).shop", script.map(\.command).joined(separator: "\n") + "\n")
            guard let child = try ShopBinary.start(["--db", sandbox.database, "-f", file]) else { return }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.4, using: &random))
            if child.isRunning { killedWhileRunning += 1 }
            child.kill()

            let problems = try DatabaseAudit.problems(at: sandbox.database)
            #expect(problems.isEmpty, "after kill \(round): \(problems.prefix(5))")
            let observed = try ShoppingModel(reading: sandbox.database)
            // The database is in the state after some number of whole commands, never between.
            let states = [model] + script.map(\.after)
            guard let finished = states.firstIndex(of: observed) else {
                Issue.record("after kill \(round): the database matches no prefix of the script: \(observed)")
                return
            }
            finishedCommands += finished
            model = observed
        }
        print("crash safety (script): \(Self.kills) kills, \(killedWhileRunning) while shop was running; \(finishedCommands) commands finished")
    }
}
