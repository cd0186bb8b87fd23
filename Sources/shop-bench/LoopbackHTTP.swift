import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The few single requests the service rows make themselves (setting peers up, checking each
/// server answers what the load asks for, timing the first answer): to 127.0.0.1 only, through
/// async-http-client's shared client (the load itself is `wrk`'s).
enum LoopbackHTTP {
    struct Response {
        var status: Int
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The largest answer read (a page of the peers' setup or of a query): 64 MiB.
    private static let maximumBody = 64 << 20

    static func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil, timeout: Double = 30) async throws -> Response {
        guard url.host == "127.0.0.1" else { throw BenchError("requests only ever go to 127.0.0.1, not \(url.absoluteString)") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.body = .bytes(ByteBuffer(string: body))
            if headers["Content-Type"] == nil { request.headers.add(name: "Content-Type", value: "application/json") }
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        let answer = try await response.body.collect(upTo: maximumBody)
        return Response(status: Int(response.status.code), body: Data(answer.readableBytesView))
    }

    /// `send`, requiring a 2xx answer.
    static func expectOK(_ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil) async throws -> Response {
        let response = try await send(method, url, headers: headers, body: body)
        guard (200..<300).contains(response.status) else {
            throw BenchError("\(method) \(url.absoluteString) answered \(response.status): \(response.text.prefix(500))")
        }
        return response
    }

    /// Seconds until `request` first gets a 2xx answer, polling every 5 ms (a refused connection
    /// means "not yet"), at most `timeout` seconds.
    static func waitUntilAnswered(since start: ContinuousClock.Instant, timeout: Double, _ request: () async throws -> Response) async throws -> Double {
        let deadline = start + .milliseconds(Int(timeout * 1000))
        var lastError = ""
        while ContinuousClock.now < deadline {
            do {
                let response = try await request()
                if (200..<300).contains(response.status) { return seconds(since: start) }
                lastError = "status \(response.status): \(response.text.prefix(300))"
            } catch {
                lastError = "\(error)"
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw BenchError("no answer within \(timeout) s (\(lastError))")
    }
}

/// Seconds from `start` to now.
func seconds(since start: ContinuousClock.Instant) -> Double { seconds(from: start, to: .now) }

/// Seconds from `start` to `end`.
func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let elapsed = end - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

extension URL {
    /// This server address with `path` (and its query, already encoded) after it.
    func withPath(_ path: String) throws -> URL {
        guard let url = URL(string: absoluteString.trimmingSuffix("/") + path) else { throw BenchError("not a URL path: \(path)") }
        return url
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

extension Optional {
    /// The value, or a ``BenchError`` naming `what` is missing.
    func unwrapped(_ what: String) throws -> Wrapped {
        guard let self else { throw BenchError("\(what) is missing") }
        return self
    }
}
