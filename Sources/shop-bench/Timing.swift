import Foundation

/// Timings of one piece of work over several repetitions (in JSON: the samples, the median and
/// the spread).
struct Timing: Encodable {
    /// Seconds per repetition, sorted.
    var samples: [Double]

    private enum CodingKeys: String, CodingKey { case samples, median, spread }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(samples, forKey: .samples)
        try container.encode(median, forKey: .median)
        try container.encode(spread, forKey: .spread)
    }

    var median: Double {
        let count = samples.count
        return count % 2 == 1 ? samples[count / 2] : (samples[count / 2 - 1] + samples[count / 2]) / 2
    }

    /// Half the distance between the fastest and slowest run, relative to the median.
    var spread: Double { median > 0 ? ((samples.last ?? 0) - (samples.first ?? 0)) / 2 / median : 0 }

    /// Runs `body` `warmUp` times untimed, then `repetitions` times timed. `prepare` runs before
    /// each repetition, untimed (e.g. to restore data a delete removed).
    static func measure(
        warmUp: Int = 1, repetitions: Int, prepare: () throws -> Void = {}, _ body: () throws -> Void
    ) throws -> Timing {
        for _ in 0..<warmUp {
            try prepare()
            try body()
        }
        var samples: [Double] = []
        for _ in 0..<repetitions {
            try prepare()
            let start = ContinuousClock.now
            try body()
            samples.append(seconds(since: start))
        }
        return Timing(samples: samples.sorted())
    }

    /// The same for asynchronous work (the query language's `execute`). The body is awaited in
    /// the calling task, so a repetition costs no task creation or thread hop of the benchmark's
    /// own.
    static func measure(
        warmUp: Int = 1, repetitions: Int, prepare: () throws -> Void = {}, _ body: () async throws -> Void
    ) async throws -> Timing {
        for _ in 0..<warmUp {
            try prepare()
            try await body()
        }
        var samples: [Double] = []
        for _ in 0..<repetitions {
            try prepare()
            let start = ContinuousClock.now
            try await body()
            samples.append(seconds(since: start))
        }
        return Timing(samples: samples.sorted())
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// Formats seconds for the table: ns, µs, ms or s.
func formatDuration(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: String(format: "%.0f ns", seconds * 1e9)
    case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
    case ..<1: String(format: "%.2f ms", seconds * 1e3)
    default: String(format: "%.2f s", seconds)
    }
}

/// Throws when a workload did not do the work it claims (so a broken workload cannot look fast).
func verify(_ condition: Bool, _ what: String) throws {
    if !condition { throw BenchError("check failed: \(what)") }
}
