import FuzzSupport
import RecordKit

/// The CKDB schema parser on arbitrary text. It must throw a `RecordError` or return a schema,
/// never trap; and a schema it returns must print (cktool's layout) and parse back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCKDB(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    guard let schema = try? CKDBParser.parse(text) else { return 0 }
    let printed = CKDBPrinter.print(schema)
    let reparsed: Schema
    do {
        reparsed = try CKDBParser.parse(printed)
    } catch {
        FuzzInput.fail("the printed schema does not parse: \(error)\nprinted: \(printed)", input: text)
    }
    if reparsed != schema {
        FuzzInput.fail("the printed schema parses to another schema\nprinted: \(printed)", input: text)
    }
    return 0
}
