import Testing

@testable import ShopCLI

/// Values typed for LIST fields in `item add` / `item set`: elements separated by commas, or a
/// JSON array for elements that hold a comma; each element typed as one value of its type is.
@Suite struct ListValueTests {
    /// A database with lists Groceries and Hardware, item Milk in Groceries, and list fields on Items.
    static func setUp() async throws -> Sandbox {
        let sandbox = Sandbox()
        let setup = await shop([
            "--db", sandbox.database, "-e", "list add Groceries", "-e", "list add Hardware", "-e", "item add Groceries Milk",
            "-e", "schema add-field Items also 'LIST<REFERENCE(Lists)>'", "-e", "schema add-field Items seen 'LIST<REFERENCE>'",
            "-e", "schema add-field Items spots 'LIST<LOCATION>'", "-e", "schema add-field Items tags 'LIST<STRING>'",
            "-e", "schema add-field Items counts 'LIST<INT64>'",
        ])
        try #require(setup.status == 0, "\(setup.errors)")
        return sandbox
    }

    /// Milk's fields as one line of JSON, through GraphQL.
    static func milk(_ sandbox: Sandbox, _ selection: String) async -> String {
        let run = await shop(["--db", sandbox.database, "--json", "-e", #"{ Items(where: {name: {eq: "Milk"}}) { \#(selection) } }"#])
        return run.output
    }

    @Test func eachElementOfAListOfReferencesIsResolvedAsOneReferenceIs() async throws {
        let sandbox = try await Self.setUp()
        for (command, message) in [
            ("item set Groceries Milk also=Groceries,Nope", "Items.also references no Lists record named 'Nope' (by name or recordName); create it first"),
            (#"item set Groceries Milk also='["Nope"]'"#, "Items.also references no Lists record named 'Nope'"),
            ("item add Groceries Eggs also=Hardware,Nope", "Items.also references no Lists record named 'Nope'"),
            ("item set Groceries Milk seen=nowhere", "Items.seen references no record named 'nowhere'"),
        ] {
            let run = await shop(["--db", sandbox.database, "-e", command])
            #expect(run.status == 1, "\(command)")
            #expect(run.errors.hasPrefix("error: unknownItem: \(message)"), "\(run.errors)")
        }
        #expect(await Self.milk(sandbox, "name also { name }").contains(#"{"name":"Milk","also":null}"#))
        let set = await shop(["--db", sandbox.database, "-e", #"item set Groceries Milk also=Groceries,Hardware"#])
        #expect(set.status == 0, "\(set.errors)")
        #expect(await Self.milk(sandbox, "also { name }").contains(#""also":[{"name":"Groceries"},{"name":"Hardware"}]"#))
        let byJSON = await shop(["--db", sandbox.database, "-e", #"item set Groceries Milk also='["Hardware"]'"#])
        #expect(byJSON.status == 0, "\(byJSON.errors)")
        let lists = await shop(["--db", sandbox.database, "--json", "-e", "{ Lists(sort: [{name: ASC}]) { recordName } }"])
        let groceries = try #require(lists.output.firstMatch(of: /"recordName":"([^"]+)"/)?.1)
        let byRecordName = await shop(["--db", sandbox.database, "-e", "item set Groceries Milk seen=\(groceries)"])
        #expect(byRecordName.status == 0, "\(byRecordName.errors)")
        #expect(
            await Self.milk(sandbox, "also { name } seen { recordName }").contains(#""also":[{"name":"Hardware"}],"seen":[{"recordName":"\#(groceries)"}]"#))
    }

    @Test func elementsHoldingACommaAreGivenAsAJSONArray() async throws {
        let sandbox = try await Self.setUp()
        let set = await shop([
            "--db", sandbox.database, "-e", #"item set Groceries Milk tags='["a,b","c"]' counts='[1,2]' spots='[[48.85,2.35],"40.71,-74.01"]'"#,
        ])
        #expect(set.status == 0, "\(set.errors)")
        #expect(
            await Self.milk(sandbox, "tags counts spots { latitude longitude }").contains(
                #"{"tags":["a,b","c"],"counts":[1,2],"spots":[{"latitude":48.85,"longitude":2.35},{"latitude":40.71,"longitude":-74.01}]}"#))
        let plain = await shop(["--db", sandbox.database, "-e", "item set Groceries Milk tags='x, y' counts=3 spots='[]'"])
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(await Self.milk(sandbox, "tags counts spots { latitude }").contains(#"{"tags":["x","y"],"counts":[3],"spots":[]}"#))
    }

    /// Shown, a list of locations (or assets) gives each element as its JSON: their numbers
    /// joined by the list's commas could not be told apart.
    @Test func aListOfLocationsIsShownElementByElement() async throws {
        let sandbox = try await Self.setUp()
        let shown = await shop([
            "--db", sandbox.database, "-e", #"item set Groceries Milk spots='[[48.85,2.35],[1,2]]' tags=a,b"#, "-e", "item show Groceries Milk",
        ])
        #expect(shown.output.contains(#"spots:      {"latitude":48.85,"longitude":2.35}, {"latitude":1.0,"longitude":2.0}"#), "\(shown.output)")
        #expect(shown.output.contains("tags:       a, b\n"), "\(shown.output)")
    }

    /// A list of locations typed with commas fails, and the example its error shows works.
    @Test(arguments: [
        ("spots=48.85,2.35", "Items.spots is LIST<LOCATION>, and '48.85' is not latitude,longitude; a list of locations is a JSON array"),
        ("spots='[48.85,2.35]'", "Items.spots is LIST<LOCATION>, and '48.85' is not latitude,longitude"),
        ("spots='[[48.85,2.35'", "Items.spots is LIST<LOCATION>, and '[[48.85,2.35' is not a JSON array (unexpected text at byte 12)"),
        ("spots='[true]'", "Items.spots is LIST<LOCATION>, and element 0 of the JSON array is not a string or a number or a [latitude, longitude] pair"),
        ("tags='[\"a\",{}]'", "Items.tags is LIST<STRING>, and element 1 of the JSON array is not a string or a number"),
    ])
    func aMalformedListValueShowsAnExampleThatWorks(assignment: String, message: String) async throws {
        let sandbox = try await Self.setUp()
        let run = await shop(["--db", sandbox.database, "-e", "item set Groceries Milk \(assignment)"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("error: schemaViolation: \(message)"), "\(run.errors)")
        let example = try #require(run.errors.firstMatch(of: /write it as (\S+='[^']*')|e\.g\. (\S+='[^']*')/), "\(run.errors)")
        let shown = String(try #require(example.1 ?? example.2))
        let retry = await shop(["--db", sandbox.database, "-e", "item set Groceries Milk \(shown)"])
        #expect(retry.status == 0, "\(shown): \(retry.errors)")
    }
}
