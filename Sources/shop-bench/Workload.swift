/// One row of the benchmark table.
struct Result: Codable {
    var workload: String
    var engine: Timing?
    var raw: Timing?
    /// An absolute figure instead of a timing pair (peak memory in MB).
    var absolute: Double?
    var unit: String?
    var budget: Budget

    /// What passes.
    enum Budget: Codable {
        /// engine median ≤ factor × raw median
        case ratio(Double)
        /// absolute figure below the limit (in `unit`)
        case below(Double)
        /// median below the limit, in seconds
        case medianBelow(Double)
    }

    var ratio: Double? {
        guard let engine, let raw, raw.median > 0 else { return nil }
        return engine.median / raw.median
    }

    var passes: Bool {
        switch budget {
        case .ratio(let factor): (ratio ?? .infinity) <= factor
        case .below(let limit): (absolute ?? .infinity) < limit
        case .medianBelow(let limit): (engine?.median ?? .infinity) < limit
        }
    }

    var budgetText: String {
        switch budget {
        case .ratio(let factor): "≤ \(factor.formatted())x raw"
        case .below(let limit): "< \(limit.formatted()) \(unit ?? "")"
        case .medianBelow(let limit): "< \(formatDuration(limit)) median"
        }
    }
}
