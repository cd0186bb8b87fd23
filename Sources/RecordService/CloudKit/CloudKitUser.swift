import Crypto
import Foundation

/// Users as CloudKit names them: a user record name is `_` and 32 hex digits, stable for one
/// principal.
enum CloudKitUser {
    static func recordName(of principal: Principal) -> String {
        "_" + SHA256.hash(data: Data(principal.key.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
