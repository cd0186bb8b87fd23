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

    /// Parses ISO-8601 with or without fractional seconds, or a bare date (`2026-11-21`); `nil`
    /// for a date or time that does not exist (`2023-02-29`, `25:61`).
    public static func parse(_ text: String) -> Date? {
        guard namesARealDateAndTime(text) else { return nil }
        if let milliseconds = millisecondsOfOwnForm(text) { return date(milliseconds: milliseconds) }
        if let date = try? formatStyle.parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().year().month().day().parse(text) { return date }
        return nil
    }

    private static let formatStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The milliseconds of a text in the form ``format(_:)`` writes for years 1583–9999
    /// (`2026-11-21T09:25:00.000Z`), read digit by digit (Howard Hinnant's `days_from_civil`):
    /// every answer a client reads carries such texts, and Foundation's parser took a tenth of
    /// a `shop --server` command's time. `nil` for any other text, left to Foundation's parser;
    /// the caller has checked that the date and time exist (``namesARealDateAndTime(_:)``).
    static func millisecondsOfOwnForm(_ text: String) -> Int64? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Int64? in
            guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z")
            else { return nil }
            func number(_ start: Int, _ count: Int) -> Int64? { decimal(bytes[start..<start + count]).map(Int64.init) }
            guard let year = number(0, 4), (1583...9999).contains(year), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3)
            else { return nil }
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = shiftedYear / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        } ?? nil
    }

    /// Whether the fields `text` writes as `YYYY-MM-DD`, then `Thh:mm` and `:ss`, name a day of
    /// the calendar and a time of day. Foundation's ISO-8601 parser takes any two digits and
    /// rolls over: 2023-02-29 became March 1, 25:61 the next day at 02:01 — another date than
    /// the one given, stored without a word. Texts of other forms are left to that parser.
    static func namesARealDateAndTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(19))
        func number(_ range: Range<Int>) -> Int? { range.upperBound <= bytes.count ? decimal(bytes[range]) : nil }
        func separator(_ index: Int, _ character: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: character) }
        guard let year = number(0..<4), separator(4, "-"), let month = number(5..<7), separator(7, "-"), let day = number(8..<10) else {
            return true
        }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...days[month - 1]).contains(day) else { return false }
        guard separator(10, "T") || separator(10, "t"), let hour = number(11..<13), separator(13, ":"), let minute = number(14..<16) else {
            return true
        }
        guard hour <= 23, minute <= 59 else { return false }
        guard separator(16, ":"), let second = number(17..<19) else { return true }
        return second <= 59
    }

    /// The number the ASCII digits `bytes` write, `nil` when any byte is not a digit.
    private static func decimal(_ bytes: some Collection<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
