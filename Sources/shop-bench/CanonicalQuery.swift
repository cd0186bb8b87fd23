import Foundation
import RecordKit
import RecordQL

/// The canonical query of the benchmark (docs/bench.md) — the items of one list sorted by name, 50 of them — in
/// each spelling the benchmark runs it: the engine API, the query language, and SQL through the
/// C API, which materializes the same values the other two return.
enum CanonicalQuery {
    static let list = DataSet.listRecordName(7)
    static let limit = 50

    static var engine: Query {
        Query("Items", predicate: PredicateField("list") == .string(list), sort: [SortDescriptor("name")], limit: limit)
    }

    /// RecordQL selecting the columns the SQL reads. A different `key` (an alias) makes a text
    /// the engine has never seen, at the same cost to parse and validate.
    static func document(key: String = "Items", list: String = list) -> String {
        let alias = key == "Items" ? "" : "\(key): "
        return "{ \(alias)Items(where: {list: {eq: \"\(list)\"}}, sort: [{name: ASC}], limit: \(limit)) { recordName name list { recordName } number } }"
    }

    static let sql = "SELECT recordName, name, list, number FROM items WHERE list = ? ORDER BY name, recordName LIMIT \(limit)"

    /// One item as each spelling returns it.
    struct Row: Equatable, Decodable {
        var recordName: String?
        var name: String?
        var list: String?
        var number: Int64?

        init(recordName: String?, name: String?, list: String?, number: Int64?) {
            self.recordName = recordName
            self.name = name
            self.list = list
            self.number = number
        }

        /// A RecordQL item: `list` is the referenced record, `{"recordName": …}`.
        init(from decoder: any Decoder) throws {
            struct Link: Decodable { var recordName: String }
            enum Keys: String, CodingKey { case recordName, name, list, number }
            let container = try decoder.container(keyedBy: Keys.self)
            recordName = try container.decodeIfPresent(String.self, forKey: .recordName)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            list = try container.decodeIfPresent(Link.self, forKey: .list)?.recordName
            number = try container.decodeIfPresent(Int64.self, forKey: .number)
        }
    }

    /// Runs `select` (prepared from ``sql``) and reads every row into Swift values.
    static func rows(_ select: RawSQLite.Statement) throws -> [Row] {
        select.bind([list])
        var rows: [Row] = []
        while try select.step() {
            rows.append(Row(recordName: select.text(0), name: select.text(1), list: select.text(2), number: select.isNull(3) ? nil : select.int64(3)))
        }
        return rows
    }

    /// The items of a RecordQL response's root field `key`.
    static func rows(of response: GraphQLResponse, key: String = "Items") throws -> [Row] {
        try ResponseData<[Row]>.decode(response)[key] ?? []
    }
}

/// The `data` object of a successful RecordQL response, decoded: root field keys to `Field`.
enum ResponseData<Field: Decodable> {
    private struct Envelope: Decodable { var data: [String: Field] }

    static func decode(_ response: GraphQLResponse) throws -> [String: Field] {
        guard response.isSuccess else { throw BenchError("the query failed: \(response.json)") }
        return try decode(json: response.json)
    }

    /// The same from response text (a raw side's).
    static func decode(json: String) throws -> [String: Field] {
        try JSONDecoder().decode(Envelope.self, from: Data(json.utf8)).data
    }
}
