import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// A LOCATION keeps what CloudKit's location dictionary carries beside the coordinates.
@Suite struct LocationDetailTests {
    static let measured = Location(
        latitude: 48.8566, longitude: 2.3522, altitude: 35.5, horizontalAccuracy: 4.25, verticalAccuracy: 3, speed: 1.5, course: 270,
        timestamp: 1_795_253_100_123)

    @Test func theMembersBesideTheCoordinatesAreStoredAndReadBack() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [ValueTests.everything]))
        let partial = Location(latitude: 1, longitude: 2, altitude: -10)
        try db.save(
            Record(
                "Everything", recordName: "e1",
                fields: ["l": .location(Self.measured), "ll": .list([.location(partial), .location(Location(latitude: 3, longitude: 4))])]))
        let fetched = try #require(try db.fetch(recordName: "e1"))
        #expect(fetched["l"] == .location(Self.measured))
        #expect(fetched["ll"] == .list([.location(partial), .location(Location(latitude: 3, longitude: 4))]))
        // The coordinates stay where every reader of the stored text finds them.
        let stored = try db.rawRows("SELECT \(SQLName.column("l")) FROM \(SQLName.table("Everything"))").first?.first
        #expect(
            stored
                == #"[48.8566,2.3522,{"altitude":35.5,"horizontalAccuracy":4.25,"verticalAccuracy":3.0,"speed":1.5,"course":270.0,"timestamp":1795253100123}]"#
        )
        #expect(
            try db.records(matching: Query("Everything", predicate: try PredicateParser.parse("distanceToLocation:fromLocation:(l, 48.85, 2.35) < 1")))
                .count == 1)
    }

    @Test func aLocationStoredWithCoordinatesOnlyReadsAsBefore() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [ValueTests.everything]))
        try db.save(Record("Everything", recordName: "e1", fields: ["l": .location(Location(latitude: 1.5, longitude: -2))]))
        #expect(try db.fetch(recordName: "e1")?["l"] == .location(Location(latitude: 1.5, longitude: -2)))
        #expect(ValueEncoding.decodeLocation("[1.5,-2]") == Location(latitude: 1.5, longitude: -2))
        #expect(ValueEncoding.decodeLocation(#"[1.5,-2,{"altitude":"high"}]"#) == Location(latitude: 1.5, longitude: -2))
    }

    @Test func projectionsWriteTheMembersPresentAndChosenOnes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [ValueTests.everything]))
        try db.save(Record("Everything", recordName: "e1", fields: ["l": .location(Self.measured)]))
        try db.save(Record("Everything", recordName: "e2", fields: ["l": .location(Location(latitude: 1, longitude: 2))]))
        let projection = Projection([
            .init("l", .field("l")),
            .init(
                "parts", .parts(field: "l", [.init("alt", .locationDetail(.altitude)), .init("at", .locationDetail(.timestamp)), .init("lat", .latitude)])),
        ])
        let json = try db.read { db in
            try ["e1", "e2"].map { try #require(try db.json(recordName: $0, recordType: "Everything", projection: projection)) }
        }
        #expect(
            json[0] == """
                {"l":{"latitude":48.8566,"longitude":2.3522,"altitude":35.5,"horizontalAccuracy":4.25,"verticalAccuracy":3.0,"speed":1.5,"course":270.0,\
                "timestamp":1795253100123},"parts":{"alt":35.5,"at":"2026-11-21T09:25:00.123Z","lat":48.8566}}
                """)
        #expect(json[1] == #"{"l":{"latitude":1.0,"longitude":2.0},"parts":{"alt":null,"at":null,"lat":1.0}}"#)
    }

    @Test func aDetailThatIsNoNumberOfItsKindIsNotSet() {
        var location = Location(latitude: 0, longitude: 0)
        #expect(!location.setDetail(.altitude, to: .infinity) && !location.setDetail(.timestamp, to: 1.5))
        #expect(Location.Detail(rawValue: "floor") == nil && location.details.isEmpty)
        #expect(location.setDetail(.timestamp, to: 1000) && location.timestamp == 1000)
    }
}
