import Foundation
import RecordKit

/// An error as CloudKit Web Services reports it: `{"uuid", "serverErrorCode", "reason"}` with the
/// HTTP status CloudKit gives the code; in a non-atomic `records/modify`, the failed operation's
/// `{"recordName", "recordType", "serverErrorCode", "reason"}` in its place.
struct CloudKitError: Error, Sendable, Equatable {
    /// CloudKit's `serverErrorCode` values this service returns.
    enum Code: String, Sendable, CaseIterable {
        case badRequest = "BAD_REQUEST"
        case authenticationFailed = "AUTHENTICATION_FAILED"
        case accessDenied = "ACCESS_DENIED"
        case notFound = "NOT_FOUND"
        case zoneNotFound = "ZONE_NOT_FOUND"
        case conflict = "CONFLICT"
        case exists = "EXISTS"
        case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
        case quotaExceeded = "QUOTA_EXCEEDED"
        case authenticationRequired = "AUTHENTICATION_REQUIRED"
        case throttled = "THROTTLED"
        case internalError = "INTERNAL_ERROR"
        case tryAgainLater = "TRY_AGAIN_LATER"

        /// The HTTP status CloudKit answers the code with.
        var status: Int {
            switch self {
            case .badRequest: 400
            case .authenticationFailed: 401
            case .accessDenied: 403
            case .notFound, .zoneNotFound: 404
            case .conflict, .exists: 409
            case .validatingReferenceError: 412
            case .quotaExceeded: 413
            case .authenticationRequired: 421
            case .throttled: 429
            case .internalError: 500
            case .tryAgainLater: 503
            }
        }
    }

    var code: Code
    /// What was wrong and, where it helps, what to do.
    var reason: String
    /// The record the failure is about, when it is about one.
    var recordName: String?
    var recordType: String?

    init(_ code: Code, _ reason: String, recordName: String? = nil, recordType: String? = nil) {
        self.code = code
        self.reason = reason
        self.recordName = recordName
        self.recordType = recordType
    }

    var status: Int { code.status }

    /// The engine's `error` with CloudKit's code for it. A failed create of a name that exists
    /// is `EXISTS` (pass `creating: true`); every other stale change tag is `CONFLICT`.
    init(_ error: RecordError, creating: Bool = false) {
        let code: Code = switch error.code {
        case .invalidArguments, .schemaViolation, .limitExceeded: .badRequest
        case .unknownItem: .notFound
        case .serverRecordChanged: creating ? .exists : .conflict
        case .transactionConflict: .conflict
        case .referenceViolation: .validatingReferenceError
        case .internalError: .internalError
        }
        self.init(code, error.message, recordName: error.recordName, recordType: error.recordType)
    }

    /// The response body of a failed request: `{"reason", "serverErrorCode", "uuid"}`.
    func body(uuid: String = UUID().uuidString) -> JSONValue {
        .object(["uuid": .string(uuid), "serverErrorCode": .string(code.rawValue), "reason": .string(reason)])
    }

    /// The result of a failed operation of a non-atomic batch, in its place in `records`.
    var operationResult: JSONValue {
        var members: [String: JSONValue] = ["serverErrorCode": .string(code.rawValue), "reason": .string(reason)]
        if let recordName { members["recordName"] = .string(recordName) }
        if let recordType { members["recordType"] = .string(recordType) }
        return .object(members)
    }
}
