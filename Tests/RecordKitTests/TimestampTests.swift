import Foundation
import RecordKit
import Testing

@Suite struct TimestampTests {
    /// What `Timestamp.format` wrote through Foundation's format style for every year, before
    /// it wrote years 1583–9999 itself.
    private static func formattedByFoundation(milliseconds: Int64) -> String {
        var (seconds, millisecond) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if millisecond < 0 {
            seconds -= 1
            millisecond += 1000
        }
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return whole.dropLast() + "." + String(String(millisecond + 1000).dropFirst()) + "Z"
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_123, "2000-02-29T00:00:00.123Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (1_795_253_100_000, "2026-11-21T09:25:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (-12_212_553_600_000, "1583-01-01T00:00:00.000Z"),
    ])
    func aTimestampIsWrittenAsISO8601WithMilliseconds(milliseconds: Int64, text: String) {
        #expect(Timestamp.format(Timestamp.date(milliseconds: milliseconds)) == text)
    }

    @Test func everyYearIsWrittenAsFoundationsFormatStyleWritesIt() {
        var generator = SystemRandomNumberGenerator()
        // Years 1 to about 11,000: the range written digit by digit, both sides of its edges, leap days.
        let samples = (0..<5_000).map { _ in Int64.random(in: -62_135_596_800_000...285_000_000_000_000, using: &generator) }
        for milliseconds in samples + [-12_212_553_600_001, 253_402_300_800_000] {
            #expect(Timestamp.format(Timestamp.date(milliseconds: milliseconds)) == Self.formattedByFoundation(milliseconds: milliseconds))
        }
    }
}
