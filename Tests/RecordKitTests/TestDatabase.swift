import Foundation
import TestSupport

@testable import RecordKit

/// A database file in a fresh temporary folder, removed when the value is released.
final class TemporaryDatabase {
    let folder: URL
    var path: String { folder.appendingPathComponent("test.sqlite").path }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("recordkit-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Opens (or reopens) the database; a new one gets `bootstrap`, by default the shopping schema.
    func open(bootstrap: Schema? = nil) throws -> RecordDatabase {
        try RecordDatabase(path: path, bootstrap: bootstrap ?? Schema.shopping)
    }
}

/// Shorthands for the shopping schema.
enum Shopping {
    static func list(_ name: String, _ title: String) -> Record {
        Record("Lists", recordName: name, fields: ["name": .string(title)])
    }

    static func item(_ name: String, _ title: String, in list: String, action: Reference.Action = .deleteSelf) -> Record {
        Record("Items", recordName: name, fields: ["name": .string(title), "list": .reference(Reference(list, action: action))])
    }

    /// The shopping schema without its NOT EMPTY and UNIQUE rules, for tests whose items share
    /// a name (ties in sort order).
    static var schemaWithoutRules: Schema {
        get throws { try Schema.shopping.withoutRules }
    }

    static func itemsOf(_ list: String) -> Query {
        Query("Items", predicate: PredicateField("list") == .string(list), sort: [SortDescriptor("name")])
    }
}

extension Array where Element == Record {
    var names: [String] { map { $0.fields["name"]?.stringValue ?? "?" } }
    var recordNames: [String] { map(\.recordName) }
}
