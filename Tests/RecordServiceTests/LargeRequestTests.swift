import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import RecordService

@Suite struct LargeRequestTests {
    /// How many handlers run now, and the most that ever ran at once.
    private final class Overlap: Sendable {
        private let counts = Mutex((now: 0, most: 0))

        var most: Int { counts.withLock { $0.most } }

        func running(_ body: () async throws -> Void) async rethrows {
            counts.withLock { counts in
                counts.now += 1
                counts.most = max(counts.most, counts.now)
            }
            defer { counts.withLock { $0.now -= 1 } }
            try await body()
        }
    }

    /// The most handlers running at once when `requests` requests with a body of `size` bytes
    /// of `contentType` arrive together at a router with `places` places for large requests.
    private func mostAtOnce(requests: Int, bodySize size: Int, contentType: String = "application/json", places: Int) async throws -> Int {
        let overlap = Overlap()
        let router = Router(context: ServiceRequestContext.self)
        router.add(middleware: BodyLimitMiddleware(limit: 1 << 20))
        router.add(middleware: LargeRequestMiddleware(places: AdmissionGate(places: places)))
        router.post("work") { request, context -> String in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            try await overlap.running { try await Task.sleep(for: .milliseconds(100)) }
            return "\(body.readableBytes)"
        }
        try await Application(router: router).test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<requests {
                    group.addTask {
                        let headers: HTTPFields = [.contentLength: "\(size)", .contentType: contentType]
                        let response = try await client.execute(uri: "/work", method: .post, headers: headers, body: ByteBuffer(repeating: 0x61, count: size))
                        #expect(response.status == .ok)
                        #expect(String(buffer: response.body) == "\(size)")
                    }
                }
                try await group.waitForAll()
            }
        }
        return overlap.most
    }

    @Test func largeRequestsAreHandledNoMoreThanThePlacesAtOnce() async throws {
        #expect(try await mostAtOnce(requests: 6, bodySize: LargeRequestMiddleware.threshold, places: 2) == 2)
    }

    @Test func smallRequestsDoNotWaitForAPlace() async throws {
        #expect(try await mostAtOnce(requests: 6, bodySize: LargeRequestMiddleware.threshold - 1, places: 2) > 2)
    }

    @Test func largeBodiesOtherThanJSONDoNotWaitForAPlace() async throws {
        let most = try await mostAtOnce(requests: 6, bodySize: LargeRequestMiddleware.threshold, contentType: "application/octet-stream", places: 2)
        #expect(most > 2)
    }
}
