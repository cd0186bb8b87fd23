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
    ///
    /// Years 1583–9999 are written digit by digit from the Gregorian date of the day count
    /// (every output of a table or a JSON document formats its timestamps, and Foundation's
    /// format style took most of the time of `items` on 10,000 rows); other years go through
    /// `Date.ISO8601FormatStyle`, which writes them as it does (Julian dates before the
    /// Gregorian reform of October 1582).
    public static func format(_ date: Date) -> String {
        var (seconds, millisecond) = milliseconds(date).quotientAndRemainder(dividingBy: 1000)
        if millisecond < 0 {
            seconds -= 1
            millisecond += 1000
        }
        var (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        if secondOfDay < 0 {
            days -= 1
            secondOfDay += 86_400
        }
        let day = CivilDate(daysSince1970: days)
        guard (1583...9999).contains(day.year) else {
            let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
            return whole.dropLast() + "." + String(String(millisecond + 1000).dropFirst()) + "Z"
        }
        // yyyy-MM-ddTHH:mm:ss.SSSZ: each field's digits, then the byte that follows it.
        let fields: [(value: Int64, digits: Int, separator: UInt8)] = [
            (day.year, 4, UInt8(ascii: "-")), (day.month, 2, UInt8(ascii: "-")), (day.day, 2, UInt8(ascii: "T")),
            (secondOfDay / 3600, 2, UInt8(ascii: ":")), (secondOfDay / 60 % 60, 2, UInt8(ascii: ":")), (secondOfDay % 60, 2, UInt8(ascii: ".")),
            (millisecond, 3, UInt8(ascii: "Z")),
        ]
        return String(unsafeUninitializedCapacity: 24) { text in
            var end = 0
            for field in fields {
                var value = field.value
                for offset in stride(from: field.digits - 1, through: 0, by: -1) {
                    text[end + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                text[end + field.digits] = field.separator
                end += field.digits + 1
            }
            return end
        }
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    struct CivilDate {
        var year: Int64
        var month: Int64
        var day: Int64

        init(daysSince1970 days: Int64) {
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let shiftedMonth = (5 * dayOfYear + 2) / 153
            day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
            month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        }
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
