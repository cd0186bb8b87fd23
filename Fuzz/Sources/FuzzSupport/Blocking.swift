import Dispatch

/// Runs async work to completion from a synchronous caller (libFuzzer's callback), on the
/// concurrency runtime's own threads.
public enum Blocking {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    /// Carries the result from the task to the waiting thread; the semaphore orders the write
    /// before the read, which the compiler cannot see.
    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }
}
