import Foundation
import FuzzSupport
import RecordKit

/// The database and engine every input runs against; mutations are undone after each input.
let (database, engine) = FuzzFixture.make()

/// The GraphQL entry point on arbitrary text: whatever the document, `execute` answers with a
/// well-formed JSON response (data, or errors with a code), never a trap or an internal error
/// for a well-formed request.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphQL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    let json = Blocking.run { await engine.execute(text).json }
    guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
        FuzzInput.fail("the response is not a JSON object: \(json)", input: text)
    }
    if let errors = object["errors"] as? [[String: Any]] {
        for error in errors {
            let code = (error["extensions"] as? [String: Any])?["code"] as? String
            if code == nil || code == RecordError.Code.internalError.rawValue {
                FuzzInput.fail("an error without a code, or an internal error: \(json)", input: text)
            }
        }
    } else if object["data"] == nil {
        FuzzInput.fail("a response with neither data nor errors: \(json)", input: text)
    }
    if text.contains("mutation") {
        FuzzFixture.reset(database, engine)
    }
    return 0
}
