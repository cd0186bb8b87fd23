import RecordQL

/// A live query feeding a subscriber's ``SubscriberBuffer``: a task pulls the query's results
/// (each run on the database's own threads, never on an event loop) and pushes their JSON into
/// the buffer until the subscriber goes away, the buffer overflows or the task is cancelled.
struct LiveFeed: Sendable {
    /// The most results one subscriber may have waiting before its connection is closed.
    static let capacity = 32
    /// How often an idle subscriber is pulsed (SSE sends a comment then, which finds a client
    /// that went away).
    static let pulseInterval: Duration = .seconds(5)

    let buffer: SubscriberBuffer
    private let tasks: [Task<Void, Never>]

    /// Starts feeding `live` into a new buffer; `overflowed` is called once, when the buffer
    /// overflows.
    init(_ live: LiveQuery, capacity: Int = LiveFeed.capacity, pulsing: Bool = false, overflowed: @escaping @Sendable () -> Void) {
        let buffer = SubscriberBuffer(capacity: capacity)
        self.buffer = buffer
        var tasks = [
            Task {
                for await response in live {
                    switch buffer.push(response.json) {
                    case .taken: continue
                    case .overflowed: overflowed()
                    case .refused: break
                    }
                    return
                }
            }
        ]
        if pulsing {
            tasks.append(
                Task {
                    while (try? await Task.sleep(for: Self.pulseInterval)) != nil { buffer.pulse() }
                })
        }
        self.tasks = tasks
    }

    /// Stops the query (and its commit subscription) and the pulses.
    func stop() {
        for task in tasks { task.cancel() }
    }
}
