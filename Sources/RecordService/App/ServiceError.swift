public import HTTPTypes
public import RecordKit

/// A request the service refuses or could not serve: an HTTP status, a code naming the failure
/// and a reason naming what was wrong and what to do. Each API renders it in its own shape
/// (``ErrorRendering``).
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// The codes of failures, CloudKit Web Services' names.
    public enum Code: String, Sendable {
        case badRequest = "BAD_REQUEST"
        case authenticationFailed = "AUTHENTICATION_FAILED"
        case authenticationRequired = "AUTHENTICATION_REQUIRED"
        case accessDenied = "ACCESS_DENIED"
        case notFound = "NOT_FOUND"
        case zoneNotFound = "ZONE_NOT_FOUND"
        case conflict = "CONFLICT"
        case exists = "EXISTS"
        case validatingReferenceError = "VALIDATING_REFERENCE_ERROR"
        case quotaExceeded = "QUOTA_EXCEEDED"
        case throttled = "THROTTLED"
        case internalError = "INTERNAL_ERROR"
        case tryAgainLater = "TRY_AGAIN_LATER"
        case changeTokenExpired = "CHANGE_TOKEN_EXPIRED"
    }

    public var status: HTTPResponse.Status
    public var code: Code
    public var reason: String
    /// Headers the response must carry (`Allow`, `WWW-Authenticate`).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, code: Code, _ reason: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.reason = reason
        self.headers = headers
    }

    public var description: String { "\(status.code) \(code.rawValue): \(reason)" }

    /// A request without a credential.
    public static var authenticationRequired: ServiceError {
        ServiceError(
            .unauthorized, code: .authenticationFailed,
            "this request needs a credential: send 'Authorization: Bearer TOKEN' (create one with: shop token create)",
            headers: [.wwwAuthenticate: "Bearer"]
        )
    }

    /// A credential that matches no token.
    public static var unknownCredential: ServiceError {
        ServiceError(
            .unauthorized, code: .authenticationFailed,
            "the token is not valid (unknown, revoked or not 64 hex characters); create one with: shop token create",
            headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""]
        )
    }

    /// An engine failure, with the status CloudKit gives its code and a reason that says what to
    /// do in the service's terms (``RecordError/serviceReason``).
    public init(_ error: RecordError) {
        if error.reason == .unknownZone {
            self.init(.notFound, code: .zoneNotFound, error.message + "; create it with zones/modify")
            return
        }
        if error.reason == .changeTokenExpired {
            self.init(.gone, code: .changeTokenExpired, error.serviceReason)
            return
        }
        let reason = error.serviceReason
        switch error.code {
        case .invalidArguments, .schemaViolation, .limitExceeded: self.init(.badRequest, code: .badRequest, reason)
        case .unknownItem: self.init(.notFound, code: .notFound, reason)
        case .serverRecordChanged, .transactionConflict: self.init(.conflict, code: .conflict, reason)
        case .referenceViolation: self.init(.preconditionFailed, code: .validatingReferenceError, reason)
        case .permissionFailure: self.init(.forbidden, code: .accessDenied, reason)
        case .internalError: self.init(.internalServerError, code: .internalError, reason)
        }
    }
}
