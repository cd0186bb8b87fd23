import ArgumentParser

/// A duration given on the command line as a whole number and a unit: `90s`, `30m`, `24h`,
/// `7d` (at most 100 years' worth of the unit). A value in another form is refused by the
/// argument parser, which names the option and shows its help line.
struct DurationArgument: ExpressibleByArgument, CustomStringConvertible, Sendable {
    let duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let unit = argument.last, let count = Int64(argument.dropLast()), (0...100 * 365).contains(count),
            let seconds = Self.units.first(where: { $0.symbol == unit })?.seconds
        else { return nil }
        duration = .seconds(count * seconds)
    }

    /// The duration in the largest unit that divides it: `1d`, `90s`.
    var description: String {
        let seconds = duration.components.seconds
        // The largest unit that divides it; none for 0, which is said in seconds.
        let unit = seconds == 0 ? Self.units[0] : Self.units.last { seconds % $0.seconds == 0 } ?? Self.units[0]
        return "\(seconds / unit.seconds)\(unit.symbol)"
    }

    var defaultValueDescription: String { description }

    private static let units: [(symbol: Character, seconds: Int64)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
}
