import Foundation
public import Hummingbird

/// The web pages whose scripts may call the service from a browser, by their origin
/// (`https://app.example`): Cross-Origin Resource Sharing, as CloudKit's API tokens list their
/// allowed origins and PocketBase's `--origins` does. A browser asks before a script's request
/// (a preflight `OPTIONS` with `Origin`), and hands a script an answer only when it names the
/// script's origin; every request still needs its credential, which a page holds itself (the
/// service sets no cookies, so none is sent for a page on its own).
public enum BrowserOrigins: Sendable, Equatable {
    /// Any page: `Access-Control-Allow-Origin: *` (the default).
    case any
    /// No page: no CORS headers, and a preflight is refused (405).
    case none
    /// Pages of these origins, each `SCHEME://HOST[:PORT]` in lowercase.
    case only([String])

    /// The origins `shop serve --allow-origin` was given: none given, or `*`, is ``any``;
    /// `none` is ``none``; otherwise each must be an origin.
    ///
    /// - Throws: A message naming the value that is not an origin and what one looks like.
    public init(arguments: [String]) throws(BrowserOriginsError) {
        switch arguments {
        case [], ["*"]: self = .any
        case ["none"]: self = .none
        default:
            var origins: [String] = []
            for argument in arguments {
                guard let origin = Self.origin(argument) else { throw BrowserOriginsError(value: argument, among: arguments.count > 1) }
                origins.append(origin)
            }
            self = .only(origins)
        }
    }

    /// `text` as an origin in lowercase when it is one: a scheme, `://`, a host and an optional
    /// port, as a browser's `Origin` header has it (`https://app.example`,
    /// `http://localhost:3000`, `http://[::1]:8080`, `capacitor://localhost`); a trailing `/` is
    /// dropped, any other path refused.
    static func origin(_ text: String) -> String? {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard trimmed.contains("://"), let parts = URLComponents(string: trimmed), parts.scheme != nil,
            let host = parts.host, !host.isEmpty, parts.path.isEmpty, parts.query == nil, parts.fragment == nil,
            parts.user == nil, parts.password == nil, (1...65535).contains(parts.port ?? 1)
        else { return nil }
        return trimmed.lowercased()
    }

    /// Whether a page of `origin` may open a WebSocket to the service: a browser lets any page
    /// open one and hands it every message, without asking (no CORS), so the service itself
    /// refuses the pages these origins leave out. A request without `Origin` is no page's.
    func admitWebSocket(from origin: String?) -> Bool {
        guard let origin else { return true }
        switch self {
        case .any: return true
        case .none: return false
        case .only(let origins): return origins.contains(origin.lowercased())
        }
    }

    /// Adds the middleware that lets these pages call the service to `router`: Hummingbird's
    /// CORS middleware (preflights answered, `Access-Control-Allow-Origin` on every answer),
    /// behind ``OriginFilterMiddleware`` for a list, and ``ExposedHeadersMiddleware``; none for
    /// ``none``.
    func addMiddleware(to router: Router<ServiceRequestContext>) {
        switch self {
        case .none:
            break
        case .any:
            router.add(middleware: Self.cors(.all))
            router.add(middleware: ExposedHeadersMiddleware())
        case .only(let origins):
            router.add(middleware: OriginFilterMiddleware(allowed: Set(origins)))
            router.add(middleware: Self.cors(.originBased))
            router.add(middleware: ExposedHeadersMiddleware())
        }
    }

    private static func cors(_ allowOrigin: CORSMiddleware<ServiceRequestContext>.AllowOriginExtended) -> CORSMiddleware<ServiceRequestContext> {
        CORSMiddleware(
            allowOrigin: allowOrigin,
            allowHeaders: [
                .accept, .authorization, .contentType, .origin, .xRequestID, .idempotencyKey, .cloudKitKeyID, .cloudKitDate,
                .cloudKitSignature,
            ],
            allowMethods: [.get, .head, .post, .delete, .options],
            maxAge: .minutes(10)
        )
    }
}

/// A value of `shop serve --allow-origin` that is not an origin.
public struct BrowserOriginsError: Error, CustomStringConvertible {
    let value: String
    let among: Bool

    public var description: String {
        let others = among ? " (with other origins, give origins only: * and none stand alone)" : ""
        return "--allow-origin '\(value)' is not an origin\(others); give SCHEME://HOST[:PORT] as a browser sends it "
            + "(https://app.example, http://localhost:3000), * for any page, or none"
    }
}
