import Foundation

/// Timings of one piece of work over several repetitions.
struct Timing: Codable {
    /// Seconds per repetition, sorted.
    var samples: [Double]

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
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return Timing(samples: samples.sorted())
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
