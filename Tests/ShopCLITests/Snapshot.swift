import Foundation
import Testing

/// Human output kept in `Fixtures/snapshots/NAME.txt`, so that a change to it is a visible diff.
/// Set `SHOP_RECORD_SNAPSHOTS=1` to rewrite them after an intended change.
enum Snapshot {
    static func check(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = ShopBinary.file("Tests/ShopCLITests/Fixtures/snapshots/\(name).txt")
        let stored = try? String(contentsOfFile: path, encoding: .utf8)
        if stored == nil || ProcessInfo.processInfo.environment["SHOP_RECORD_SNAPSHOTS"] != nil {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            if stored == nil { Issue.record("recorded the new snapshot \(name).txt; check it and run again", sourceLocation: sourceLocation) }
            return
        }
        #expect(text == stored, "output differs from snapshot \(name).txt", sourceLocation: sourceLocation)
    }
}
