import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RecordKit

/// One server-sent event: its name (`next`, `complete`, `error`) and its data.
struct ServerEvent: Sendable, Equatable {
    var name: String
    var data: String
}

/// Splits a `text/event-stream` body into events as its bytes arrive: events end with a blank
/// line, `event:` names one (`message` when none does), `data:` lines are its data (joined by
/// line breaks), lines starting with `:` are comments (keep-alives).
struct EventStreamParser {
    private var pending: [UInt8] = []

    /// The events `bytes` completes.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerEvent] {
        pending += bytes
        var events: [ServerEvent] = []
        while let end = blankLine() {
            let block = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
            pending.removeSubrange(..<end.upperBound)
            var name = "message"
            var data: [Substring] = []
            // "\r\n" is one Character, a line end as "\n" is.
            for line in block.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                guard !line.hasPrefix(":"), let colon = line.firstIndex(of: ":") else { continue }
                var value = line[line.index(after: colon)...]
                if value.hasPrefix(" ") { value = value.dropFirst() }
                switch line[..<colon] {
                case "event": name = String(value)
                case "data": data.append(value)
                default: continue
                }
            }
            if !data.isEmpty || name != "message" { events.append(ServerEvent(name: name, data: data.joined(separator: "\n"))) }
        }
        return events
    }

    /// Where the first blank line (`\n\n` or `\r\n\r\n`) is.
    private func blankLine() -> Range<Int>? {
        var index = 0
        while index + 1 < pending.count {
            if pending[index] == 10, pending[index + 1] == 10 { return index..<index + 2 }
            if pending[index] == 13, index + 3 < pending.count, pending[index + 1] == 10, pending[index + 2] == 13, pending[index + 3] == 10 {
                return index..<index + 4
            }
            index += 1
        }
        return nil
    }
}

extension ServerConnection {
    /// Posts `request` asking for server-sent events (`Accept: text/event-stream`), once, and
    /// returns its events as they come.
    ///
    /// - Throws: ``RecordError`` naming the URL when the server cannot be reached, or the
    ///   server's own error when it does not answer with a stream.
    func events(_ request: ServerRequest) async throws(RecordError) -> AsyncThrowingStream<ServerEvent, any Error> {
        var http = HTTPClientRequest(url: request.url)
        http.method = request.method
        http.headers = headers(for: request)
        http.headers.replaceOrAdd(name: "Accept", value: "text/event-stream")
        if let body = request.body { http.body = .bytes(ByteBuffer(bytes: body)) }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(http, deadline: .distantFuture)
        } catch {
            throw RecordError(
                .internalError,
                "cannot reach the server at \(settings.url) (\(TransportFailure(error).account)); check that shop serve is running there")
        }
        guard response.status == .ok, response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true else {
            let body = (try? await response.body.collect(upTo: Self.maximumResponseSize)) ?? ByteBuffer()
            throw ServerErrors.error(
                of: ServerResponse(status: Int(response.status.code), body: Data(body.readableBytesView), isReplay: false), url: settings.url)
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                var parser = EventStreamParser()
                do {
                    for try await buffer in response.body {
                        for event in parser.feed(buffer.readableBytesView) { continuation.yield(event) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
