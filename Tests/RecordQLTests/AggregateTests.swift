import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// `TAggregate` and the referrers' `SAggregate`, checked against the same aggregates computed
/// by Python from the same generated records, for random filters: absent values, empty sets and
/// lists with no items included.
@Suite("Aggregates")
struct AggregateTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Lists ( name STRING QUERYABLE SORTABLE );
            RECORD TYPE Items (
                name STRING QUERYABLE SORTABLE,
                list REFERENCE QUERYABLE // references Lists
                ,
                number INT64 QUERYABLE SORTABLE,
                price DOUBLE QUERYABLE,
                due TIMESTAMP QUERYABLE
            );
        """

    /// One condition of a generated filter, as a `where:` object and as data for Python.
    struct Condition: Encodable {
        var field: String
        var op: String
        var value: Double

        var filter: Map {
            let operators = [">": "gt", ">=": "gte", "<": "lt", "<=": "lte", "==": "eq"]
            let operand: Map =
                switch field {
                case "due": .string(Timestamp.format(Timestamp.date(milliseconds: Int64(value))))
                case "number": .number(Number(Int64(value)))
                default: .number(Number(value))
                }
            return [field: [operators[op] ?? op: operand]]
        }
    }

    struct Item: Encodable {
        var list: String
        var number: Int64?
        var price: Double?
        var due: Int64?
    }

    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    @Test func aggregatesMatchPythonForRandomFilters() async throws {
        let shop = try EngineFixture(bootstrap: try CKDBParser.parse(Self.schema))
        var random = Generator(state: 2026)
        // L4 has no items: its aggregates are those of an empty set.
        let lists = ["L0", "L1", "L2", "L3", "L4"]
        var items: [Item] = []
        var operations: [RecordOperation] = lists.map { .create(Record("Lists", recordName: $0, fields: ["name": .string($0)])) }
        for index in 0..<300 {
            let item = Item(
                list: lists[random.below(4)],
                number: random.chance(70) ? Int64(random.below(200)) - 50 : nil,
                price: random.chance(60) ? Double(random.below(100_000)) / 100 : nil,
                due: random.chance(50) ? 1_700_000_000_000 + Int64(random.below(10_000_000)) * 1_000 + Int64(random.below(1000)) : nil
            )
            var fields: [String: RecordKit.Value] = ["name": .string("item \(index)"), "list": .reference(Reference(item.list, action: .deleteSelf))]
            if let number = item.number { fields["number"] = .int64(number) }
            if let price = item.price { fields["price"] = .double(price) }
            if let due = item.due { fields["due"] = .timestamp(Timestamp.date(milliseconds: due)) }
            operations.append(.create(Record("Items", recordName: "I\(index)", fields: fields)))
            items.append(item)
        }
        try shop.database.modify(operations)

        var filters: [[Condition]] = [[], [Condition(field: "number", op: ">", value: 1_000)]]
        for _ in 0..<20 {
            filters.append(
                (0...random.below(2)).map { _ in
                    switch random.below(3) {
                    case 0: Condition(field: "number", op: [">=", "<", "=="][random.below(3)], value: Double(random.below(200) - 50))
                    case 1: Condition(field: "price", op: [">", "<="][random.below(2)], value: Double(random.below(1000)))
                    default:
                        Condition(field: "due", op: [">", "<"][random.below(2)], value: Double(1_700_000_000_000 + Int64(random.below(10_000_000)) * 1_000))
                    }
                })
        }
        var responses: [String] = []
        for filter in filters {
            let filterObject: Map = ["AND": .array(filter.map(\.filter))]
            let selection = "count sum { number price } avg { number price due } min { number price due } max { number price due }"
            let document = """
                query($f: ItemsFilter) { ItemsAggregate(where: $f) { \(selection) } \
                Lists(sort: [{name: ASC}]) { name ItemsAggregate(where: $f) { \(selection) } } }
                """
            responses.append(await shop.data(document, variables: ["f": filterObject]))
        }
        struct Input: Encodable {
            var items: [Item]
            var lists: [String]
            var filters: [[Condition]]
            var responses: [String]
        }
        let input = String(decoding: try JSONEncoder().encode(Input(items: items, lists: lists, filters: filters, responses: responses)), as: UTF8.self)
        let output = try GraphQLCore.run(Self.python, input: input)
        #expect(output == "checked \(filters.count * (1 + lists.count))\n", "\(output)")
    }

    /// Computes every aggregate from the records and compares it with the engine's response;
    /// prints each difference, then how many aggregate objects it checked.
    static let python = """
        import sys, json, operator, datetime
        given = json.load(sys.stdin)
        ops = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "==": operator.eq}
        def matches(item, conditions):
            # An absent value matches no comparison (NSPredicate's two-valued logic).
            # (Swift leaves absent values out of the JSON.)
            return all(item.get(c["field"]) is not None and ops[c["op"]](item[c["field"]], c["value"]) for c in conditions)
        def iso(ms):
            return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (ms % 1000)
        def parse_iso(text):
            return round(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp() * 1000)
        def expected(items):
            values = {f: [i[f] for i in items if i.get(f) is not None] for f in ("number", "price", "due")}
            agg = lambda fn, fs: {f: (fn(values[f]) if values[f] else None) for f in fs}
            return {
                "count": len(items),
                "sum": agg(sum, ("number", "price")),
                "avg": agg(lambda v: sum(v) / len(v), ("number", "price", "due")),
                "min": agg(min, ("number", "price", "due")),
                "max": agg(max, ("number", "price", "due")),
            }
        problems = []
        def compare(where, want, got):
            if got["count"] != want["count"]:
                problems.append(f"{where}: count {got['count']} != {want['count']}")
            for fn in ("sum", "avg", "min", "max"):
                for field, value in want[fn].items():
                    actual = got[fn][field]
                    if value is None or actual is None:
                        ok = value is None and actual is None
                    elif field == "due":
                        ms = parse_iso(actual)
                        ok = abs(ms - value) <= 1 if fn == "avg" else actual == iso(value)
                    elif fn == "avg" or field == "price":
                        ok = abs(actual - value) <= 1e-9 * max(1, abs(value))
                    else:
                        ok = actual == value and type(actual) is int
                    if not ok:
                        problems.append(f"{where}: {fn}.{field} {actual!r} != {value!r}")
        for conditions, response in zip(given["filters"], given["responses"]):
            data = json.loads(response)["data"]
            chosen = [i for i in given["items"] if matches(i, conditions)]
            compare(f"{conditions} all", expected(chosen), data["ItemsAggregate"])
            for entry in data["Lists"]:
                compare(f"{conditions} {entry['name']}", expected([i for i in chosen if i["list"] == entry["name"]]), entry["ItemsAggregate"])
            if [e["name"] for e in data["Lists"]] != given["lists"]:
                problems.append(f"lists {data['Lists']}")
        checked = sum(1 + len(json.loads(r)["data"]["Lists"]) for r in given["responses"])
        print("\\n".join(problems + [f"checked {checked}"]))
        """

    @Test func listsWithTheirItemCountsAreOneStatement() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread")])
        await shop.createList("L2", "Hardware", items: [])
        var json = ""
        let statements = await shop.dataStatements {
            json = await shop.data("{ Lists(sort: [{name: ASC}]) { name ItemsAggregate { count } } }")
        }
        #expect(json == #"{"data":{"Lists":[{"name":"Groceries","ItemsAggregate":{"count":2}},{"name":"Hardware","ItemsAggregate":{"count":0}}]}}"#)
        #expect(statements.count == 1, "\(statements)")
    }

    @Test func explainShowsTheIndexAnAggregateUses() async throws {
        let shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk")])
        let plan = try await shop.engine.explain(#"{ ItemsAggregate(where: {list: {eq: "L1"}}) { count } }"#)
        #expect(plan.contains("count("), "\(plan)")
        #expect(plan.contains("USING COVERING INDEX") || plan.contains("USING INDEX"), "\(plan)")
    }

    /// A sum past its type's range fails as `limitExceeded` saying what to do (SQLite failed
    /// the INT64 sum as `internalError`, and the DOUBLE sum and average, infinite, read as no
    /// value); the same fields aggregate as usual over records that stay in range.
    @Test func aSumPastItsTypesRangeIsLimitExceeded() async throws {
        let shop = try EngineFixture(bootstrap: try CKDBParser.parse(Self.schema))
        try shop.database.save(Record("Lists", recordName: "L1", fields: ["name": .string("Big")]))
        for (name, number, price) in [("a", Int64.max, 1e308), ("b", 1, 1e308)] {
            try shop.database.save(
                Record(
                    "Items", recordName: name,
                    fields: ["list": .reference(Reference("L1", action: .deleteSelf)), "number": .int64(number), "price": .double(price)]))
        }
        for selection in ["sum { number }", "sum { price }", "avg { price }"] {
            for document in ["{ ItemsAggregate { count \(selection) } }", "{ Lists { ItemsAggregate { count \(selection) } } }"] {
                let errors = await shop.run(document).errors
                #expect(errors.map(\.code) == [.limitExceeded], "\(document)")
                #expect(errors.first?.message.contains("aggregate fewer records") == true, "\(errors)")
            }
        }
        #expect(
            await shop.data(#"{ ItemsAggregate(where: {number: {eq: 1}}) { sum { number price } avg { price } } }"#)
                == #"{"data":{"ItemsAggregate":{"sum":{"number":1,"price":1e+308},"avg":{"price":1e+308}}}}"#)
    }

    @Test func aggregatesOfFieldsTheyDoNotApplyToAreRefused() async throws {
        let shop = try EngineFixture(bootstrap: try CKDBParser.parse(Self.schema))
        #expect(await shop.run("{ ItemsAggregate { sum { due } } }").errors.map(\.code) == [.schemaViolation])
        #expect(await shop.run("{ ItemsAggregate { min { name } } }").errors.map(\.code) == [.schemaViolation])
        #expect(
            await shop.data("{ ItemsAggregate { count __typename sum { __typename } } }")
                == #"{"data":{"ItemsAggregate":{"count":0,"__typename":"ItemsAggregate","sum":{"__typename":"ItemsSumFields"}}}}"#)
    }
}
