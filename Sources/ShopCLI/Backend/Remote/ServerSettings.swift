import Foundation
import NIOSSL
import RecordKit

/// Where `shop --server` sends its requests and with which credential: the server's URL, the
/// database (`public` or `private`) of the `development` environment, and the bearer token.
struct ServerSettings: Equatable {
    /// The server's URL as given, without a trailing slash (`http://127.0.0.1:8080`).
    var url: String
    /// `public` or `private`.
    var database: String
    /// The bearer token; never printed.
    var token: String?
    /// How long one request may take before it counts as dropped and is retried.
    var requestTimeout: Duration
    /// How long a request is retried after connection failures before giving up.
    var retryBudget: Duration
    /// Certificates trusted beyond the system's, read once from the PEM file `$SSL_CERT_FILE`
    /// names when the URL is https://: a server whose certificate a private or self-made
    /// authority signed.
    var trustedCertificates: [NIOSSLCertificate] = []

    /// The CloudKit container named in every URL: `shop serve`'s own unless `--container` gave it
    /// another, which the server's `/health` names (``RemoteBackend/connect()``).
    var container = "iCloud.shop"

    /// Whether `url` is https://.
    static func isSecure(_ url: String) -> Bool {
        url.lowercased().hasPrefix("https://")
    }

    /// `url` with the other scheme, https:// for http:// and http:// for https://: the one to
    /// use when the server turns out to speak the other.
    static func otherScheme(of url: String) -> String {
        isSecure(url) ? "http://" + url.dropFirst("https://".count) : "https://" + url.dropFirst("http://".count)
    }

    /// The URL of the database's `endpoint` (`graphql`, `transactions/ID`, `schema`).
    func endpoint(_ path: String) -> String {
        "\(url)/database/1/\(container)/development/\(database)/\(path)"
    }

    /// The settings for `--server URL [--token T] [--database D]`: the URL from the option or
    /// `$SHOP_SERVER`, the token from the option, `$SHOP_TOKEN`, or the token file
    /// (``tokenFile(environment:)``). `nil` when no server is named.
    static func resolve(
        server: String?, token: String?, database: String?, environment: [String: String]
    ) throws(RecordError) -> ServerSettings? {
        guard let server = server ?? environment["SHOP_SERVER"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw RecordError(
                .invalidArguments, "--server '\(server)' is not an http:// or https:// URL; give the address shop serve prints, e.g. http://127.0.0.1:8080")
        }
        // The port as written after the host (Foundation reads one past Int's range, and an
        // empty one, as no port at all).
        let authority = server.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? ""
        if let written = authority.firstMatch(of: /:(\d*)$/)?.1, Int(written).map({ (1...65_535).contains($0) }) != true {
            throw RecordError(.invalidArguments, "--server '\(server)' names port '\(written)'; a port is 1 to 65535, as shop serve prints it")
        }
        let database = database ?? "public"
        guard database == "public" || database == "private" else {
            throw RecordError(.invalidArguments, "--database is public or private, not '\(database)'")
        }
        let token = token ?? environment["SHOP_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? readTokenFile(environment: environment)
        var trimmed = server
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return ServerSettings(
            url: trimmed, database: database, token: token,
            requestTimeout: try seconds(environment, "SHOP_SERVER_TIMEOUT", default: 10),
            retryBudget: try seconds(environment, "SHOP_SERVER_RETRY", default: 30),
            // Only TLS uses them: an http:// server is never asked for a certificate (a probe for
            // TLS on a dropped connection takes a refused certificate as TLS spoken).
            trustedCertificates: isSecure(trimmed) ? try trustedCertificates(environment) : []
        )
    }

    /// The certificates of the file `$SSL_CERT_FILE` names (OpenSSL's variable, which curl and
    /// Python read too), when set: it must hold PEM certificates, read here so a wrong file is
    /// named before any request rather than as a failed handshake. (Where it names the system's
    /// whole bundle, reading it takes about 2 ms of a one-line command's 25.)
    private static func trustedCertificates(_ environment: [String: String]) throws(RecordError) -> [NIOSSLCertificate] {
        guard let path = environment["SSL_CERT_FILE"], !path.isEmpty else { return [] }
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw RecordError(
                .invalidArguments,
                "$SSL_CERT_FILE '\(path)' is not a readable file of PEM certificates; name the authority's certificate "
                    + "(-----BEGIN CERTIFICATE-----), or unset it to trust the system's authorities only")
        }
        return certificates
    }

    /// The token file: `$XDG_CONFIG_HOME/shop/token`, else `~/.config/shop/token`.
    static func tokenFile(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty { return config + "/shop/token" }
        return environment["HOME"].map { $0 + "/.config/shop/token" }
    }

    private static func readTokenFile(environment: [String: String]) -> String? {
        // A token is 64 characters: a file far larger is not a token file (and is not read whole).
        guard let path = tokenFile(environment: environment), let data = try? FileContents.read(path, maximumBytes: 64 << 10) else { return nil }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    /// The longest request timeout or retry budget the environment may set: a day.
    static let longestSeconds: Double = 86_400

    /// The seconds `environment[name]` sets, or `value` when it is unset or empty; anything but
    /// a number of seconds above 0 and at most a day is refused, naming the variable.
    private static func seconds(_ environment: [String: String], _ name: String, default value: Double) throws(RecordError) -> Duration {
        guard let text = environment[name], !text.isEmpty else { return .milliseconds(Int64(value * 1000)) }
        guard let seconds = Double(text), seconds > 0, seconds <= longestSeconds else {
            throw RecordError(
                .invalidArguments, "$\(name) is a number of seconds above 0 and at most \(Int(longestSeconds)) (e.g. \(Int(value))), not '\(text)'")
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
