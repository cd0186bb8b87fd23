import NIOCore

/// Runs the jobs of the tasks that prefer it (`withTaskExecutorPreference`) on one NIO event
/// loop: code that awaits the answers of an HTTP client on that loop resumes on the thread the
/// answer arrived on, without waking a thread of Swift's pool.
///
/// Work running on it holds up the loop's connections meanwhile: it suits a script's commands,
/// which send their requests one at a time, and not a prompt that waits for a person.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
