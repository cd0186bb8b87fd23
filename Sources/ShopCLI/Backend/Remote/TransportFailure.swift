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
                self = .tls(text)
            } else {
                self = .dropped
            }
        }
    }

    /// What happened, for the retry line: "the connection dropped".
    var account: String {
        switch self {
        case .refused: "the server refused the connection"
        case .dropped: "the connection dropped before the answer arrived"
        case .timedOut: "no answer within the timeout"
        case .stillRunning: "the server is still running the first attempt"
        case .tls(let detail): "TLS failed (\(detail))"
        }
    }

    /// Whether sending again can help.
    var isRetryable: Bool {
        if case .tls = self { return false }
        return true
    }
}
