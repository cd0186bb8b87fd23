/// One row of the benchmark table. Its JSON form adds the ratio, the budget as the table
/// prints it and the verdict, so a reader of `--json` need not recompute them.
struct Result: Encodable {
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

    private enum CodingKeys: String, CodingKey {
        case workload, engine, raw, absolute, unit, budget, ratio, budgetText, verdict
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(workload, forKey: .workload)
        try container.encodeIfPresent(engine, forKey: .engine)
        try container.encodeIfPresent(raw, forKey: .raw)
        try container.encodeIfPresent(absolute, forKey: .absolute)
        try container.encodeIfPresent(unit, forKey: .unit)
        try container.encode(budget, forKey: .budget)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encode(budgetText, forKey: .budgetText)
        try container.encode(passes ? "PASS" : "FAIL", forKey: .verdict)
    }

    var budgetText: String {
        switch budget {
        case .ratio(let factor): "≤ \(factor.formatted())x raw"
        case .below(let limit): "< \(limit.formatted()) \(unit ?? "")"
        case .medianBelow(let limit): "< \(formatDuration(limit)) median"
        }
    }
}
