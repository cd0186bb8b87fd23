import CompressNIO
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import RecordService

@Suite struct RequestDecompressionTests {
    private static func gzipped(_ text: String) throws -> ByteBuffer {
        var plain = ByteBuffer(string: text)
        return try plain.compress(with: .gzip())
    }

    private static func post(
        _ client: some TestClientProtocol, _ uri: String, token: String, coding: String, body: ByteBuffer
    ) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: .post,
            headers: [.authorization: "Bearer " + token, .contentType: "application/json", .contentEncoding: coding], body: body)
    }

    @Test func aGzippedBodyIsReadAsTheJSONItHolds() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let graphQL = try await Self.post(
                client, "/graphql", token: fixture.adminToken, coding: "gzip", body: try Self.gzipped(#"{"query": "{ __typename }"}"#))
            #expect(graphQL.status == .ok && graphQL.text.contains(#""__typename":"Query""#))
            let query = #"{"query": {"recordType": "Lists"}}"#
            let cloudKit = try await Self.post(
                client, "/database/1/iCloud.shop/development/public/records/query", token: fixture.adminToken, coding: "X-Gzip",
                body: try Self.gzipped(query))
            #expect(cloudKit.status == .ok && cloudKit.text.contains(#""records""#))
        }
    }

    @Test(arguments: [64 * 1024, ServiceConfiguration.defaultMaximumBodySize])
    func aBodyThatInflatesPastTheLimitIsRefusedWith413(limit: Int) async throws {
        let fixture = try ServiceFixture { $0.maximumBodySize = limit }
        try await fixture.test { client in
            for excess in [1, limit / 8] {
                let padded = #"{"query": "{ __typename }"# + String(repeating: " ", count: limit + excess) + #""}"#
                let inflated = try await Self.post(client, "/graphql", token: fixture.adminToken, coding: "gzip", body: try Self.gzipped(padded))
                #expect(inflated.status == .contentTooLarge)
                #expect(inflated.text.contains("more than \(limit) bytes once decompressed"), "\(inflated.text)")
            }
        }
    }

    @Test func aBodyThatIsNotGzipOrInAnotherCodingIsRefusedSayingSo() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let notGzip = try await Self.post(client, "/graphql", token: fixture.adminToken, coding: "gzip", body: ByteBuffer(string: "{}"))
            #expect(notGzip.status == .badRequest && notGzip.text.contains("the request body is not gzip"))
            for coding in ["br", "gzip, br", "deflate"] {
                let other = try await Self.post(client, "/graphql", token: fixture.adminToken, coding: coding, body: ByteBuffer(string: "{}"))
                #expect(other.status == .unsupportedMediaType && other.headers[.acceptEncoding] == "gzip")
                #expect(other.text.contains("Content-Encoding '\(coding)' is not one this service reads"))
            }
            let identity = try await Self.post(
                client, "/graphql", token: fixture.adminToken, coding: "identity", body: ByteBuffer(string: #"{"query": "{ __typename }"}"#))
            #expect(identity.status == .ok)
        }
    }
}
