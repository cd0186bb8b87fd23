import NIOPosix
import RecordKit

/// Runs database work on NIO's blocking thread pool, so that it never holds an event loop or a
/// thread of Swift's cooperative pool (a slow query must not hold up `/health` or another
/// database).
enum BlockingWork {
    /// Runs the synchronous `body` on the pool.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws(RecordError) -> T) async throws(RecordError) -> T {
        do {
            return try await NIOThreadPool.singleton.runIfActive { () throws -> T in try body() }
        } catch let error as RecordError {
            throw error
        } catch {
            throw RecordError(.internalError, "the database work could not run: \(error)", underlyingError: error)
        }
    }

    /// Runs the asynchronous `body` with the pool as its task executor: every synchronous stretch
    /// of it (the database calls in between its suspension points) runs on a pool thread.
    static func perform<T: Sendable>(_ body: () async -> T) async -> T {
        await withTaskExecutorPreference(executor, operation: body)
    }

    private static let executor = ThreadPoolExecutor(pool: .singleton)
}

/// A task executor running its jobs on a NIO thread pool.
private final class ThreadPoolExecutor: TaskExecutor {
    let pool: NIOThreadPool

    init(pool: NIOThreadPool) {
        self.pool = pool
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        pool.submit { _ in job.runSynchronously(on: executor) }
    }
}
