import AsyncHTTPClient
import Foundation
import NIOCore

/// Why a request got no answer: what the client saw of the connection.
enum TransportFailure: Equatable {
    /// Nothing listens at the address (or no route to it): the request was never sent.
    case refused
    /// The connection closed or broke before the whole answer arrived.
    case dropped
    /// No answer within the request timeout.
    case timedOut
    /// The server is still running the first attempt of this transaction (409).
    case stillRunning
    /// Something between the client and the server (a proxy, a load balancer), or the server
    /// while it stops, answered 502, 503 or 504: the request may or may not have reached the
    /// server, so a write is sent again with its transaction ID.
    case unavailable(status: Int)
    /// TLS could not be set up (a certificate the client does not trust, a plain-HTTP server on
    /// an https:// URL): retrying cannot help.
    case tls(String)

    /// How `error`, thrown by the HTTP client, counts.
    init(_ error: any Error) {
        switch error {
        case let error as HTTPClientError where error == .readTimeout || error == .deadlineExceeded || error == .writeTimeout:
            self = .timedOut
        case let error as HTTPClientError where error == .connectTimeout:
            self = .refused
        case let error as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL].contains(error.errnoCode):
            self = .refused
        default:
            let text = String(describing: error)
            if text.contains("Connection refused") || text.contains("connectionRefused") {
                self = .refused
            } else if text.contains("SSL") || text.contains("TLS") || text.contains("handshake") || text.contains("certificate") {
                self = .tls(Self.tlsReason(text))
            } else {
                self = .dropped
            }
        }
    }

    /// A TLS failure as a person reads it: a certificate that does not verify, or a server that
    /// does not speak TLS, said so; anything else as the TLS library put it, without the
    /// locations in its own source that it appends.
    static func tlsReason(_ text: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return "the server's certificate is not signed by an authority this client trusts" }
        if text.contains("WRONG_VERSION_NUMBER") { return notTLS }
        var reason = text
        while let location = reason.range(of: " at /") {
            let end = reason[location.upperBound...].firstIndex { $0 == "]" || $0 == ")" } ?? reason.endIndex
            reason.removeSubrange(location.lowerBound..<end)
        }
        return reason
    }

    /// What happened, for the retry line: "the connection dropped".
    var account: String {
        switch self {
        case .refused: "the server refused the connection"
        case .dropped: "the connection dropped before the answer arrived"
        case .timedOut: "no answer within the timeout"
        case .stillRunning: "the server is still running the first attempt"
        case .unavailable(let status): "the server or a proxy before it answered \(status)"
        case .tls(let detail): "TLS failed (\(detail))"
        }
    }

    /// The failure an answer with `status` stands for, or `nil` when it is the server's answer:
    /// 409 to a transaction still running, 502-504 from a proxy or a stopping server.
    static func answered(_ status: Int, transactionID: String?) -> TransportFailure? {
        switch status {
        case 409 where transactionID != nil: .stillRunning
        case 502, 503, 504: .unavailable(status: status)
        default: nil
        }
    }

    /// The reason of a TLS failure against a server that answers in plain HTTP.
    static let notTLS = "the server does not speak TLS there"

    /// Whether sending again can help.
    var isRetryable: Bool {
        if case .tls = self { return false }
        return true
    }
}
