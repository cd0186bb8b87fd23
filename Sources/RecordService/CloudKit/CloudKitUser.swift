import Crypto
import Foundation
import RecordKit

/// Users as CloudKit names them: a user record name is `_` and 32 hex digits, stable for one
/// user; the owner (an admin token, a server-to-server key) is ``AccessPolicy/ownerRecordName``.
enum CloudKitUser {
    static func recordName(of principal: Principal) -> String {
        switch principal.kind {
        case .admin, .serverKey: AccessPolicy.ownerRecordName
        case .user, .world: "_" + HexDigits.lowercase(SHA256.hash(data: Data(principal.key.utf8)).prefix(16))
        }
    }
}
