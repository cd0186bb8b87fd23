public import Foundation

/// TIMESTAMP conversions: stored as integer milliseconds since 1970, shown as ISO-8601.
public enum Timestamp {
    /// Milliseconds since 1970 for `date`, rounded to the nearest millisecond.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The date `milliseconds` after 1970.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// ISO-8601 with milliseconds in UTC: `2026-11-21T09:25:00.000Z`, the millisecond the date
    /// rounds to (as stored: the formatter's own fraction truncates, so `….123` stored as a
    /// binary double printed as `….122`).
    public static func format(_ date: Date) -> String {
        var (seconds, millisecond) = milliseconds(date).quotientAndRemainder(dividingBy: 1000)
        if millisecond < 0 {
            seconds -= 1
            millisecond += 1000
        }
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return whole.dropLast() + "." + String(String(millisecond + 1000).dropFirst()) + "Z"
    }

    /// Parses ISO-8601 with or without fractional seconds, or a bare date (`2026-11-21`).
    public static func parse(_ text: String) -> Date? {
        if let date = try? formatStyle.parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().year().month().day().parse(text) { return date }
        return nil
    }

    private static let formatStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
