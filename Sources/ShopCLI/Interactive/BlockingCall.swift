import Dispatch

/// Runs async work to its end from synchronous code that must wait for it: libedit's completion
/// callback, which asks the backend (perhaps a server) for names while the prompt waits.
///
/// The prompt runs on the main thread, outside Swift's cooperative pool, so the work has the
/// pool to itself while the caller waits.
enum BlockingCall {
    static func run<T>(_ body: @escaping () async -> T) -> T {
        let box = ResultBox<T>(body)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await box.run()
            done.signal()
        }
        done.wait()
        return box.result!
    }

    /// The work and its result, handed between the waiting thread and the task; the semaphore
    /// orders the accesses.
    private final class ResultBox<T>: @unchecked Sendable {
        let body: () async -> T
        var result: T?

        init(_ body: @escaping () async -> T) {
            self.body = body
        }

        func run() async {
            result = await body()
        }
    }
}
