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

    /// The median and the 99th percentile of `samples` (in any order; zeros when empty).
    static func percentiles(_ samples: [Double]) -> (p50: Double, p99: Double) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return (0, 0) }
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
    }

    /// Half the distance between the fastest and slowest run, relative to the median.
    var spread: Double { median > 0 ? ((samples.last ?? 0) - (samples.first ?? 0)) / 2 / median : 0 }

    /// One side of a comparison: `body` is timed once per repetition, after `prepare` (untimed,
    /// e.g. to restore data a delete removed).
    struct Side {
        var prepare: () throws -> Void = {}
        var body: () async throws -> Void

        init(prepare: @escaping () throws -> Void = {}, _ body: @escaping () async throws -> Void) {
            self.prepare = prepare
            self.body = body
        }
    }

    /// Times `engine` and `raw` in alternation: one untimed warm-up of each, then `repetitions`
    /// rounds of one engine and one raw repetition, so that a change in the machine's load while
    /// a row runs falls on both of its sides instead of on whichever ran second. An awaited body
    /// runs in the calling task: a repetition costs no task creation or thread hop of the
    /// benchmark's own.
    static func compare(repetitions: Int, engine: Side, raw: Side) async throws -> (engine: Timing, raw: Timing) {
        for side in [engine, raw] {
            try side.prepare()
            try await side.body()
        }
        var engineSamples: [Double] = []
        var rawSamples: [Double] = []
        for _ in 0..<repetitions {
            engineSamples.append(try await time(engine))
            rawSamples.append(try await time(raw))
        }
        return (Timing(samples: engineSamples.sorted()), Timing(samples: rawSamples.sorted()))
    }

    private static func time(_ side: Side) async throws -> Double {
        try side.prepare()
        let start = ContinuousClock.now
        try await side.body()
        return seconds(since: start)
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
