import Foundation

/// One load run of `wrk` (the Debian package) against a server on loopback: a Lua script makes
/// every request (varying the list it asks for, and for writes a fresh recordName per record)
/// and its `done` hook prints the figures as one JSON line, so nothing depends on the layout of
/// wrk's own report.
struct Wrk {
    /// The request each connection sends over and over. In `path` and `body`, `{list}` becomes
    /// the list of this request (its `lists` entry, rotating per request and offset per thread)
    /// and `{seq}` a number no other request of the run uses.
    struct Request {
        var method = "GET"
        var path: String
        var headers: [String: String] = [:]
        var body: String?
        /// The values `{list}` takes, one per request in turn.
        var lists: [String]
    }

    /// What one run measured.
    struct Figures: Decodable {
        var requests: Int
        /// Seconds the load ran.
        var seconds: Double
        /// Connect, read and write errors, and responses with a status of 400 or more.
        var errors: Int
        var statusErrors: Int
        /// Requests without an answer within wrk's timeout (5 s): slowness, not failure.
        var timeouts: Int
        var p50: Double
        var p99: Double

        var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    }

    let program: Program
    let folder: URL

    init(folder: URL) throws {
        program = try Program.installed("wrk", package: "wrk")
        self.folder = folder
    }

    /// Loads `url` (loopback only) with `connections` for `seconds`, one thread per core.
    func run(_ request: Request, url: URL, connections: Int, seconds: Int) throws -> Figures {
        guard let host = url.host, host == "127.0.0.1" || host == "localhost" else {
            throw BenchError("load is only ever sent to 127.0.0.1, not \(url.absoluteString)")
        }
        let threads = max(1, min(connections, ProcessInfo.processInfo.activeProcessorCount))
        let script = folder.appendingPathComponent("wrk-\(UUID().uuidString).lua")
        try Self.script(for: request).write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let arguments = [
            "--threads", "\(threads)", "--connections", "\(connections)", "--duration", "\(seconds)s",
            "--timeout", "5s", "--script", script.path, url.absoluteString,
        ]
        let output = try program.output(arguments, in: folder)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{\"requests\"") }) else {
            throw BenchError("wrk printed no figures:\n\(output)")
        }
        let figures = try JSONDecoder().decode(Figures.self, from: Data(line.utf8))
        try verify(figures.requests > 0, "wrk completed requests against \(url.absoluteString)")
        if figures.timeouts > 0 { log("\(figures.timeouts) requests to \(url.absoluteString) had no answer within 5 s") }
        try verify(
            figures.errors == 0 && figures.statusErrors == 0,
            "every request to \(url.absoluteString) succeeded (\(figures.errors) socket errors, \(figures.statusErrors) error statuses of \(figures.requests))")
        return figures
    }

    /// The Lua script: `setup` numbers the threads, `request` fills in the templates, `done`
    /// prints the summary as JSON (latencies in seconds).
    static func script(for request: Request) -> String {
        func lua(_ text: String) -> String { "[==[\(text)]==]" }
        let headers = request.headers.sorted { $0.key < $1.key }
            .map { "wrk.headers[ \(lua($0.key)) ] = \(lua($0.value))" }.joined(separator: "\n")
        let lists = request.lists.map(lua).joined(separator: ", ")
        return """
            local lists = { \(lists) }
            local path = \(lua(request.path))
            local body = \(request.body.map(lua) ?? "nil")
            wrk.method = \(lua(request.method))
            \(headers)

            local threads = 0
            function setup(thread)
              thread:set("number", threads)
              threads = threads + 1
            end

            local sent = 0
            function request()
              sent = sent + 1
              local list = lists[((number or 0) * 7 + sent) % #lists + 1]
              local seq = tostring((number or 0) * 100000000 + sent)
              local function fill(text)
                return (text:gsub("{list}", list):gsub("{seq}", seq))
              end
              return wrk.format(nil, fill(path), nil, body and fill(body) or nil)
            end

            function done(summary, latency, requests)
              local e = summary.errors
              io.write(string.format(
                '{"requests":%d,"seconds":%.6f,"errors":%d,"statusErrors":%d,"timeouts":%d,"p50":%.9f,"p99":%.9f}\\n',
                summary.requests, summary.duration / 1e6, e.connect + e.read + e.write, e.status, e.timeout,
                latency:percentile(50) / 1e6, latency:percentile(99) / 1e6))
            end
            """
    }
}
