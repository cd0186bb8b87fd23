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
        /// An operation of an atomic batch that was not applied because another failed.
        case atomicError = "ATOMIC_ERROR"
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
        let (status, code) = Self.statusAndCode(of: error)
        self.init(status, code: code, error.serviceReason)
    }

    /// CloudKit's status and code for an engine failure: by its reason where CloudKit has a code
    /// of its own for it (a missing zone, an expired change token), otherwise by its code.
    static func statusAndCode(of error: RecordError) -> (HTTPResponse.Status, Code) {
        switch (error.reason, error.code) {
        case (.unknownZone?, _): (.notFound, .zoneNotFound)
        case (.changeTokenExpired?, _): (.gone, .changeTokenExpired)
        case (_, .invalidArguments), (_, .schemaViolation), (_, .limitExceeded): (.badRequest, .badRequest)
        case (_, .unknownItem): (.notFound, .notFound)
        case (_, .serverRecordChanged), (_, .transactionConflict): (.conflict, .conflict)
        case (_, .referenceViolation): (.preconditionFailed, .validatingReferenceError)
        case (_, .permissionFailure): (.forbidden, .accessDenied)
        case (_, .internalError): (.internalServerError, .internalError)
        }
    }
}
