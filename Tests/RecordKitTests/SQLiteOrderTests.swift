import Foundation
import GRDB
import Testing

@testable import RecordKit

/// The order pages of one query from several databases are merged in (``ZoneWideQuery``).
@Suite struct SQLiteOrderTests {
    /// SQLite's order, the one each zone's page is read in: text by its bytes (Swift's `==`
    /// holds "e\u{301}" and "\u{e9}" equal), numbers by value whatever their storage, NULL
    /// first and blobs last.
    @Test func valuesCompareAsSQLiteOrdersThem() {
        let ordered: [DatabaseValueConvertible?] = [nil, -1, 0.5, 1, Int64.max, "", "Zebra", "apple", "e\u{301}", "\u{e9}", Data([0]), Data([0, 1])]
        let values = ordered.map { $0?.databaseValue ?? .null }
        for (i, left) in values.enumerated() {
            for (j, right) in values.enumerated() {
                let order = SQLiteOrder.compare(left, right)
                #expect(i < j ? order < 0 : i > j ? order > 0 : order == 0, "\(left) against \(right)")
            }
        }
        #expect(SQLiteOrder.compare(1.databaseValue, 1.0.databaseValue) == 0)
    }
}
