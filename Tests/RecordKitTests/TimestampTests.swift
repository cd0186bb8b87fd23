import Foundation
import Testing

@testable import RecordKit

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

    /// A date or time that does not exist is refused, not rolled over into another one.
    @Test(arguments: [
        "2023-02-29", "2023-02-29T10:00:00Z", "2024-02-30T00:00:00Z", "2024-04-31", "2023-13-01", "2023-00-10", "2024-01-00",
        "2023-01-01T25:00:00Z", "2023-01-01T23:61:00Z", "2023-01-01T23:59:60Z", "2023-02-29T25:61:00.500+02:00",
    ])
    func aDayOrTimeThatDoesNotExistIsRefused(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test(arguments: [
        ("2024-02-29", Int64(1_709_164_800_000)), ("2000-02-29T23:59:59Z", 951_868_799_000),
        ("2023-12-31T23:59:59.999Z", 1_704_067_199_999), ("2023-06-30T12:00:00+02:00", 1_688_119_200_000),
    ])
    func aRealDayAndTimeParse(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text).map(Timestamp.milliseconds) == milliseconds)
    }

    @Test func everyYearIsWrittenAsFoundationsFormatStyleWritesIt() {
        var generator = SystemRandomNumberGenerator()
        // Years 1 to about 11,000: the range written digit by digit, both sides of its edges, leap days.
        let samples = (0..<5_000).map { _ in Int64.random(in: -62_135_596_800_000...285_000_000_000_000, using: &generator) }
        for milliseconds in samples + [-12_212_553_600_001, 253_402_300_800_000] {
            #expect(Timestamp.format(Timestamp.date(milliseconds: milliseconds)) == Self.formattedByFoundation(milliseconds: milliseconds))
        }
    }

    @Test func theFormItWritesIsReadAsFoundationReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        // Years 1583 to 9999, the range read digit by digit, and the edges of that range.
        let samples = (0..<5_000).map { _ in Int64.random(in: -12_212_553_600_000...253_402_300_799_999, using: &generator) }
        let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for milliseconds in samples + [-12_212_553_600_000, 253_402_300_799_999, 951_782_400_123, 0, -1] {
            let text = Timestamp.format(Timestamp.date(milliseconds: milliseconds))
            #expect(Timestamp.millisecondsOfOwnForm(text) == milliseconds, "\(text)")
            #expect(Timestamp.milliseconds(try foundation.parse(text)) == milliseconds, "\(text)")
        }
        let otherForms = [
            "1582-12-31T23:59:59.999Z", "2026-11-21T09:25:00Z", "2026-11-21T09:25:00.000+00:00", "2026-11-21t09:25:00.000Z", "2026-1a-21T09:25:00.000Z",
        ]
        for other in otherForms {
            #expect(Timestamp.millisecondsOfOwnForm(other) == nil, "\(other)")
        }
        #expect(Timestamp.parse("2026-11-21T09:25:00.123Z").map(Timestamp.milliseconds) == 1_795_253_100_123)
    }
}
