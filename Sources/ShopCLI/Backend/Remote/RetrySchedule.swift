/// When to try a request again after its connection failed: exponential backoff with jitter
/// (each wait a random time between half and all of 0.2 s, 0.4 s, 0.8 s … capped at 5 s), until
/// `budget` has passed since the first attempt. The last wait is cut short to end with the
/// budget, so the last attempt is made then rather than given up a whole wait early.
struct RetrySchedule {
    let budget: Duration
    private let now: () -> ContinuousClock.Instant
    private let start: ContinuousClock.Instant
    private var failures = 0

    /// A schedule starting now; `now` reads the clock (a test passes its own).
    init(budget: Duration, now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.budget = budget
        self.now = now
        self.start = now()
    }

    static let firstCeiling = Duration.milliseconds(200)
    static let maximumCeiling = Duration.seconds(5)

    /// The wait before the next attempt, or `nil` when the budget is spent.
    mutating func next() -> Duration? {
        failures += 1
        let remaining = budget - elapsed
        guard remaining > .zero else { return nil }
        let ceiling = min(Self.firstCeiling * (1 << min(failures - 1, 10)), Self.maximumCeiling)
        return min(ceiling * Double.random(in: 0.5...1), remaining)
    }

    /// How long the retries have taken so far.
    var elapsed: Duration { now() - start }
}
