import Foundation

/// One row of the service table: shop's figure beside the peers' and, for the write rows, the
/// engine's in-process rate, with the ratio the budget is about and the verdict.
struct ServiceResult: Encodable {
    var workload: String
    var unit: Unit
    var shop: Figure
    var pocketBase: Figure?
    var datasette: Figure?
    /// The engine doing the same work in process (`modify` for the write rows, `changePage`
    /// for the change feed's), beside the service.
    var engine: Figure?
    /// The engine's call that figure times, as the budget names it.
    var engineWork = "modify"
    var budget: Budget

    /// What the figures count.
    enum Unit: String, Encodable {
        case requestsPerSecond = "requests/s"
        case recordsPerSecond = "records/s"
        case seconds = "s"
        case megabytes = "MB"
    }

    /// A figure and, for load runs, its latency percentiles (seconds).
    struct Figure: Encodable {
        var value: Double
        var p50: Double?
        var p99: Double?

        init(_ value: Double, p50: Double? = nil, p99: Double? = nil) {
            self.value = value
            self.p50 = p50
            self.p99 = p99
        }

        init(_ figures: Wrk.Figures) {
            self.init(figures.requestsPerSecond, p50: figures.p50, p99: figures.p99)
        }
    }

    enum Budget: Encodable {
        /// shop's figure at least `factor` times PocketBase's.
        case timesPocketBase(Double)
        /// shop's figure at least `factor` times the engine's in-process one.
        case timesEngine(Double)
        /// shop's figure below `limit` (in the row's unit).
        case below(Double)
    }

    /// shop's figure over the one the budget compares it with.
    var ratio: Double? {
        let base: Figure? =
            switch budget {
            case .timesPocketBase: pocketBase
            case .timesEngine: engine
            case .below: nil
            }
        guard let base, base.value > 0 else { return nil }
        return shop.value / base.value
    }

    /// `nil` when the figure the budget compares with was not measured (a peer not installed).
    var passes: Bool? {
        switch budget {
        case .timesPocketBase(let factor), .timesEngine(let factor): ratio.map { $0 >= factor }
        case .below(let limit): shop.value < limit
        }
    }

    var verdict: String { passes.map { $0 ? "PASS" : "FAIL" } ?? "—" }

    var budgetText: String {
        switch budget {
        case .timesPocketBase(let factor): "≥ \(factor.formatted())x PocketBase"
        case .timesEngine(let factor): "≥ \(factor.formatted())x in-process \(engineWork)"
        case .below(let limit): "< \(format(limit, percentiles: false))"
        }
    }

    /// A figure as the table prints it: `12,345/s (p50 1.20 ms, p99 4.10 ms)`, `0.12 s`, `41.3 MB`.
    func format(_ figure: Figure) -> String { format(figure.value, percentiles: true, figure) }

    private func format(_ value: Double, percentiles: Bool, _ figure: Figure? = nil) -> String {
        let text =
            switch unit {
            case .requestsPerSecond, .recordsPerSecond: "\(Int(value.rounded()).formatted())/s"
            case .seconds: formatDuration(value)
            case .megabytes: String(format: "%.1f MB", value)
            }
        guard percentiles, let p50 = figure?.p50, let p99 = figure?.p99 else { return text }
        return "\(text) (p50 \(formatDuration(p50)), p99 \(formatDuration(p99)))"
    }

    private enum CodingKeys: String, CodingKey {
        case workload, unit, shop, pocketBase, datasette, engine, budget, ratio, budgetText, verdict
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(workload, forKey: .workload)
        try container.encode(unit, forKey: .unit)
        try container.encode(shop, forKey: .shop)
        try container.encodeIfPresent(pocketBase, forKey: .pocketBase)
        try container.encodeIfPresent(datasette, forKey: .datasette)
        try container.encodeIfPresent(engine, forKey: .engine)
        try container.encode(budget, forKey: .budget)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encode(budgetText, forKey: .budgetText)
        try container.encode(verdict, forKey: .verdict)
    }
}
