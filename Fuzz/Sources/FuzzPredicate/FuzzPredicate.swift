import FuzzSupport
import RecordKit

/// Records of every field type that parsed predicates are run against.
let (database, _) = FuzzFixture.make()

/// The NSPredicate parser on arbitrary text. It must throw a `RecordError` or return a
/// predicate, never trap; a predicate it returns must print and parse back to itself (unless
/// the printed form passes the length limit), and
/// compile and run against each record type (a `RecordError` for a field that type lacks).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    guard let predicate = try? PredicateParser.parse(text) else { return 0 }
    let printed = predicate.description
    do {
        let reparsed = try PredicateParser.parse(printed)
        if reparsed != predicate {
            FuzzInput.fail("the printed predicate \(printed.debugDescription) parses to \(reparsed)", input: text)
        }
    } catch {
        // Escapes make the printed form longer than the text (NUL is `\u0000`): past the
        // parser's length limit it cannot read back, by design.
        if !(error.code == .limitExceeded && printed.unicodeScalars.count > PredicateParser.maximumLength) {
            FuzzInput.fail("the printed predicate \(printed.debugDescription) does not parse: \(error)", input: text)
        }
    }
    for recordType in ["T", "Items"] {
        do {
            _ = try database.records(matching: Query(recordType, predicate: predicate, limit: 3))
        } catch {
            if error.code == .internalError {
                FuzzInput.fail("the predicate fails inside the engine: \(error)", input: text)
            }
        }
    }
    return 0
}
