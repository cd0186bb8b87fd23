import Foundation
import HTTPTypes
import RecordKit

/// An error as CloudKit Web Services reports it: `{"uuid", "serverErrorCode", "reason"}` with the
/// HTTP status CloudKit gives the code (rendered through ``serviceError``); in `records/modify`, a failed operation's
/// `{"recordName", "recordType", "serverErrorCode", "reason"}` in its place.
struct CloudKitError: Error, Sendable, Equatable {
    /// CloudKit's `serverErrorCode` values: the service's codes.
    typealias Code = ServiceError.Code

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

    /// The HTTP status CloudKit answers the code with.
    var status: Int { code.cloudKitStatus }

    /// The engine's `error` with CloudKit's code for it (the service's mapping). A failed create
    /// of a name that exists is `EXISTS` (pass `creating: true`); every other stale change tag
    /// is `CONFLICT`.
    init(_ error: RecordError, creating: Bool = false) {
        let rendered = ServiceError(error)
        let code = creating && error.code == .serverRecordChanged ? .exists : rendered.code
        self.init(code, rendered.reason, recordName: error.recordName, recordType: error.recordType)
    }

    /// The error as the service renders it at the edge.
    var serviceError: ServiceError {
        ServiceError(HTTPResponse.Status(code: status), code: code, reason)
    }

    /// The result of a failed operation of a `records/modify` batch, in its place in `records`.
    var operationResult: JSONValue {
        var members: [String: JSONValue] = ["serverErrorCode": .string(code.rawValue), "reason": .string(reason)]
        if let recordName { members["recordName"] = .string(recordName) }
        if let recordType { members["recordType"] = .string(recordType) }
        return .object(members)
    }
}

extension ServiceError.Code: CaseIterable {
    public static let allCases: [ServiceError.Code] = [
        .badRequest, .authenticationFailed, .accessDenied, .notFound, .zoneNotFound, .conflict, .exists,
        .validatingReferenceError, .quotaExceeded, .authenticationRequired, .throttled, .internalError, .tryAgainLater,
        .changeTokenExpired, .atomicError,
    ]

    /// The HTTP status CloudKit Web Services answers the code with.
    var cloudKitStatus: Int {
        switch self {
        case .badRequest, .atomicError: 400
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
        case .changeTokenExpired: 410
        }
    }
}
