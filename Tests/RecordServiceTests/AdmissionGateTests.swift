import Synchronization
import Testing

@testable import RecordService

@Suite struct AdmissionGateTests {
    /// Whether work ran, set from any task.
    private final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    @Test func workCancelledWhileItWaitsLeavesTheQueueWithoutTakingAPlace() async throws {
        let gate = AdmissionGate(places: 1)
        let (holding, held) = AsyncStream.makeStream(of: Void.self)
        let (releasing, release) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await gate.admitting {
                held.yield()
                for await _ in releasing { break }
            }
        }
        for await _ in holding { break }

        let ranWhileCancelled = Flag()
        let waiter = Task { try await gate.admitting { ranWhileCancelled.set() } }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        // What ends first: the cancelled waiter, or ten seconds with the place still held.
        let first = await withTaskGroup(of: String.self) { group in
            group.addTask {
                do {
                    try await waiter.value
                    return "ran"
                } catch {
                    return error is CancellationError ? "cancelled" : "\(error)"
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return "still waiting after 10 s"
            }
            let first = await group.next() ?? ""
            release.yield()  // the holder leaves either way, so that both children end
            group.cancelAll()
            return first
        }
        #expect(first == "cancelled", "a cancelled waiter leaves the queue at once, not when a place is free")
        try await holder.value
        #expect(!ranWhileCancelled.isSet)

        // The place is free again, and the cancelled waiter never took it.
        let ranAfter = Flag()
        try await gate.admitting { ranAfter.set() }
        try await gate.admitting { ranAfter.set() }
        #expect(ranAfter.isSet && !ranWhileCancelled.isSet)
    }

    @Test func workAlreadyCancelledDoesNotRunEvenWithAFreePlace() async throws {
        let gate = AdmissionGate(places: 1)
        let ran = Flag()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await gate.admitting { ran.set() }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.isSet)
        try await gate.admitting { ran.set() }
        #expect(ran.isSet)
    }
}
