import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// Aliases, fragments, variables, `@include`/`@skip` and `__typename` behave as GraphQL says.
@Suite("Selections: aliases, fragments, variables, directives")
struct EngineSelectionTests {
    let shop: EngineFixture

    init() async throws {
        shop = try EngineFixture()
        await shop.createList("L1", "Groceries", items: [("I1", "Milk"), ("I2", "Bread")])
        await shop.createList("L2", "Hardware", items: [("I3", "Nails")])
    }

    @Test func aliasesNameTheKeysAndLetOneFieldBeAskedTwice() async {
        let json = await shop.data(
            """
            { first: Lists(sort: [{name: ASC}], limit: 1) { title: name id: recordName }
              last: Lists(sort: [{name: DESC}], limit: 1) { title: name } }
            """)
        #expect(json == #"{"data":{"first":[{"title":"Groceries","id":"L1"}],"last":[{"title":"Hardware"}]}}"#)
    }

    @Test func fragmentsNamedAndInlineMergeIntoTheSelection() async {
        let json = await shop.data(
            """
            query { Lists(sort: [{name: ASC}]) { ...Summary ... on Lists { recordName } } }
            fragment Summary on Lists { name Items(sort: [{name: ASC}]) { ...ItemName } }
            fragment ItemName on Items { name }
            """)
        #expect(
            json == #"""
                {"data":{"Lists":[{"name":"Groceries","Items":[{"name":"Bread"},{"name":"Milk"}],"recordName":"L1"},{"name":"Hardware","Items":[{"name":"Nails"}],"recordName":"L2"}]}}
                """#)
    }

    @Test func fieldsSelectedTwiceUnderOneKeyMergeTheirSelections() async {
        let json = await shop.data(#"{ Items(predicate: "name == 'Nails'") { list { name } list { recordName } } }"#)
        #expect(json == #"{"data":{"Items":[{"list":{"name":"Hardware","recordName":"L2"}}]}}"#)
    }

    @Test func variablesFillArgumentsWithDefaultsAndInputObjects() async {
        let document = """
            query Items($list: ID!, $order: SortDirection = DESC, $filter: ItemsFilter! = {}, $limit: Int) {
              Items(where: {AND: [{list: {eq: $list}}, $filter]}, sort: [{name: $order}], limit: $limit) { name }
            }
            """
        #expect(await shop.data(document, variables: ["list": "L1"]) == #"{"data":{"Items":[{"name":"Milk"},{"name":"Bread"}]}}"#)
        let filtered = await shop.data(document, variables: ["list": "L1", "order": "ASC", "filter": ["name": ["beginsWith": "B"]], "limit": 5])
        #expect(filtered == #"{"data":{"Items":[{"name":"Bread"}]}}"#)
    }

    @Test func includeAndSkipFollowTheirConditions() async {
        let document = """
            query($details: Boolean!) {
              Lists(sort: [{name: ASC}], limit: 1) { name recordName @include(if: $details) ...Count @skip(if: $details) }
            }
            fragment Count on Lists { Items { recordName } }
            """
        #expect(await shop.data(document, variables: ["details": true]) == #"{"data":{"Lists":[{"name":"Groceries","recordName":"L1"}]}}"#)
        #expect(
            await shop.data(document, variables: ["details": false])
                == #"{"data":{"Lists":[{"name":"Groceries","Items":[{"recordName":"I1"},{"recordName":"I2"}]}]}}"#)
        #expect(await shop.data("{ Lists @skip(if: true) { name } __typename @include(if: false) }") == #"{"data":{}}"#)
    }

    @Test func typenameNamesEachObjectsType() async {
        let json = await shop.data(
            """
            { __typename ItemsPage(limit: 1, sort: [{name: ASC}]) { __typename records { __typename list { __typename } } } }
            """)
        #expect(
            json == #"{"data":{"__typename":"Query","ItemsPage":{"__typename":"ItemsPage","records":[{"__typename":"Items","list":{"__typename":"Lists"}}]}}}"#)
    }

    @Test func theOperationIsChosenByName() async {
        let document = "query A { Lists(limit: 1, sort: [{name: ASC}]) { name } } query B { Items(limit: 1, sort: [{name: ASC}]) { name } }"
        #expect(await shop.run(document, operationName: "B").json == #"{"data":{"Items":[{"name":"Bread"}]}}"#)
        #expect(await shop.run(document, operationName: "C").errors.map(\.code) == [.invalidArguments])
    }

    @Test func introspectionIsAnsweredBesideData() async {
        let json = await shop.data(#"{ Lists(limit: 1, sort: [{name: ASC}]) { name } t: __type(name: "Lists") { name kind } }"#)
        #expect(json == #"{"data":{"Lists":[{"name":"Groceries"}],"t":{"name":"Lists","kind":"OBJECT"}}}"#)
        let schema = await shop.data("{ __schema { mutationType { name } } }")
        #expect(schema == #"{"data":{"__schema":{"mutationType":{"name":"Mutation"}}}}"#)
    }

    @Test func theSchemaPrintsAsSDL() async throws {
        let sdl = try await shop.engine.schemaDefinitionLanguage()
        #expect(sdl.contains("type Items implements Record"))
        #expect(sdl.contains("directive @transaction(id: String!) on MUTATION"))
    }
}

/// Values of every shape: locations, assets, untyped references resolved per record type.
@Suite("Selections of locations, assets and untyped references")
struct EngineValueSelectionTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE People (
                name        STRING QUERYABLE SORTABLE
            );
            RECORD TYPE Places (
                name        STRING QUERYABLE SORTABLE,
                spot        LOCATION QUERYABLE,
                photo       ASSET,
                owner       REFERENCE QUERYABLE,
                stops       LIST<REFERENCE> QUERYABLE // references Places
            );
        """

    @Test func partsReferencesAndFragmentsOnTheRecordInterface() async throws {
        let shop = try EngineFixture(bootstrap: try CKDBParser.parse(Self.schema))
        let photo = Data("a picture".utf8)
        try shop.database.modify([
            .create(Record("People", recordName: "P1", fields: ["name": .string("Ada")])),
            .create(Record("Places", recordName: "X1", fields: ["name": .string("Home")])),
            .create(
                Record(
                    "Places", recordName: "X2",
                    fields: [
                        "name": .string("Park"),
                        "spot": .location(Location(latitude: 48.5, longitude: 2.25)),
                        "photo": .asset(Asset(content: photo)),
                        "owner": .reference(Reference("P1")),
                        "stops": .list([.reference(Reference("X1")), .reference(Reference("X9"))]),
                    ])),
            .create(Record("Places", recordName: "X3", fields: ["name": .string("Shed"), "owner": .reference(Reference("X1"))])),
        ])
        let json = await shop.data(
            """
            { Places(sort: [{name: ASC}]) {
                name
                spot { lat: latitude longitude __typename }
                photo { size }
                owner { __typename recordName ... on People { name } ... on Places { placeName: name } }
                stops { name }
            } }
            """)
        #expect(
            json == #"""
                {"data":{"Places":[{"name":"Home","spot":null,"photo":null,"owner":null,"stops":null},{"name":"Park","spot":{"lat":48.5,"longitude":2.25,"__typename":"Location"},"photo":{"size":9},"owner":{"__typename":"People","recordName":"P1","name":"Ada"},"stops":[{"name":"Home"},null]},{"name":"Shed","spot":null,"photo":null,"owner":{"__typename":"Places","recordName":"X1","placeName":"Home"},"stops":null}]}}
                """#)
        let sha256 = Asset(content: photo).sha256
        #expect(
            await shop.data(#"{ asset(sha256: "\#(sha256)") missing: asset(sha256: "00") }"#)
                == #"{"data":{"asset":"\#(photo.base64EncodedString())","missing":null}}"#)
    }

    /// What a device measured beside the coordinates (CloudKit's location dictionary) is written
    /// by `LocationInput` and read back as members of `Location`, `null` where not given.
    @Test func aLocationCarriesWhatWasMeasuredBesideItsCoordinates() async throws {
        let shop = try EngineFixture(bootstrap: try CKDBParser.parse(Self.schema))
        let created = await shop.data(
            """
            mutation { createPlaces(recordName: "X1", fields: {name: "Tower", spot: {latitude: 48.8584, longitude: 2.2945, altitude: 330.5,
                horizontalAccuracy: 5, timestamp: "2026-11-21T09:25:00.123Z"}}) { recordName } }
            """)
        #expect(created == #"{"data":{"createPlaces":{"recordName":"X1"}}}"#)
        #expect(
            try shop.database.fetch(recordName: "X1")?["spot"]
                == .location(Location(latitude: 48.8584, longitude: 2.2945, altitude: 330.5, horizontalAccuracy: 5, timestamp: 1_795_253_100_123)))
        let read = await shop.data("{ Places { spot { latitude altitude horizontalAccuracy verticalAccuracy speed course timestamp } } }")
        #expect(
            read
                == #"{"data":{"Places":[{"spot":{"latitude":48.8584,"altitude":330.5,"horizontalAccuracy":5.0,"verticalAccuracy":null,"speed":null,"course":null,"timestamp":"2026-11-21T09:25:00.123Z"}}]}}"#
        )
    }
}
