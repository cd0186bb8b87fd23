import Foundation
internal import GRDB

/// SQL functions the compiled queries call, registered on every connection.
enum SQLFunctions {
    /// `shop_fold(text)`: Unicode case folding for `[c]` comparisons (SQLite's `lower` and
    /// NOCASE only fold ASCII).
    static let fold = DatabaseFunction("shop_fold", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
        return caseFolded(text)
    }

    /// `shop_distance(location, latitude, longitude)`: kilometres from a stored LOCATION to a
    /// point, NULL when the location is absent.
    static let distance = DatabaseFunction("shop_distance", argumentCount: 3, pure: true) { values in
        guard let stored = String.fromDatabaseValue(values[0]),
            let location = ValueEncoding.decodeLocation(stored),
            let latitude = Double.fromDatabaseValue(values[1]),
            let longitude = Double.fromDatabaseValue(values[2])
        else { return nil }
        return location.distance(to: Location(latitude: latitude, longitude: longitude))
    }

    /// The folding `shop_fold` applies, for literals folded before binding.
    static func caseFolded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive], locale: nil)
    }

    static func register(in db: Database) {
        for function in [fold, distance, base64, jsonNumber, finite] {
            db.add(function: function)
        }
    }
}

extension SQLFunctions {
    /// `shop_base64(blob)`: BYTES as base64 text for JSON.
    static let base64 = DatabaseFunction("shop_base64", argumentCount: 1, pure: true) { values in
        Data.fromDatabaseValue(values[0])?.base64EncodedString()
    }

    /// `shop_finite(x)`: `x`, or the error ``overflowMessage`` when it is a double past DOUBLE's
    /// range, as a sum or an average of huge values is: SQLite answers infinity, which JSON
    /// cannot hold (it read as no value).
    static let finite = DatabaseFunction("shop_finite", argumentCount: 1, pure: true) { values in
        if case .double(let number) = values[0].storage, !number.isFinite { throw DatabaseError(message: overflowMessage) }
        return values[0]
    }

    /// What ``finite`` fails with; SQLite's `sum` of integers fails with `integer overflow`.
    static let overflowMessage = "double overflow"

    /// `shop_json_number(x)`: JSON text of a number, integers as they are and doubles in Swift's
    /// shortest round-trip form; NULL stays NULL.
    static let jsonNumber = DatabaseFunction("shop_json_number", argumentCount: 1, pure: true) { values in
        switch values[0].storage {
        case .int64(let number): String(number)
        case .double(let number) where number.isFinite: String(number)
        default: nil
        }
    }
}
