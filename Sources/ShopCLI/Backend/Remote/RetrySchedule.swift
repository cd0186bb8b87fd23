/// When to try a request again after its connection failed: exponential backoff with full
/// jitter (each wait a random time up to 0.2 s, 0.4 s, 0.8 s … capped at 5 s), until `budget`
/// has passed since the first attempt.
struct RetrySchedule {
    let budget: Duration
    private let start = ContinuousClock.now
    private var failures = 0

    init(budget: Duration) {
        self.budget = budget
    }

    static let firstCeiling = Duration.milliseconds(200)
    static let maximumCeiling = Duration.seconds(5)

    /// The wait before the next attempt, or `nil` when the budget would be spent by then.
    mutating func next() -> Duration? {
        failures += 1
        let ceiling = min(Self.firstCeiling * (1 << min(failures - 1, 10)), Self.maximumCeiling)
        let wait = ceiling * Double.random(in: 0.5...1)
        guard ContinuousClock.now - start + wait < budget else { return nil }
        return wait
    }

    /// How long the retries have taken so far.
    var elapsed: Duration { ContinuousClock.now - start }
}
