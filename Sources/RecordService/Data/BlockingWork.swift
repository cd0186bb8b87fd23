import NIOPosix
import RecordKit

/// Runs the synchronous database work the storage seam does not cover (opening a file, the
/// token store, listing stored transactions) on NIO's blocking thread pool, so that it never
/// holds an event loop or a thread of Swift's cooperative pool.
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
}
