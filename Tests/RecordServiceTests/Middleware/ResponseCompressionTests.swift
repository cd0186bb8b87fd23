import CompressNIO
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import RecordService

@Suite struct ResponseCompressionTests {
    @Test(arguments: [
        (["gzip"], true), (["GZIP"], true), (["x-gzip"], true), (["deflate, gzip;q=0.5"], true), (["br", "gzip"], true),
        (["*"], true), (["gzip;q=0"], false), (["gzip; q=0.000"], false), (["*;q=0"], false), (["gzip;q=0, *"], false),
        (["identity"], false), (["deflate, br"], false), ([], false),
    ])
    func gzipIsTakenWhenTheRequestAcceptsItWithAQualityAboveZero(values: [String], accepted: Bool) {
        #expect(ResponseCompressionMiddleware.acceptsGzip(values) == accepted)
    }

    @Test(arguments: [
        ("application/json", true), ("application/graphql-response+json; charset=utf-8", true), ("application/yaml", true),
        ("text/plain", true), ("text/event-stream", false), ("application/octet-stream", false), ("image/png", false),
        (" Application/JSON ; charset=utf-8", true), ("TEXT/Event-Stream;charset=utf-8", false), ("application/problem+JSON", true),
        ("application/jsonx", false), ("json", false), ("", false),
    ])
    func answersInJSONYAMLOrTextAreCompressibleStreamsAndBinaryAreNot(contentType: String, compressible: Bool) {
        let response = Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: "x")))
        #expect(ResponseCompressionMiddleware.isCompressible(response) == compressible)
        var encoded = response
        encoded.headers[.contentEncoding] = "br"
        #expect(!ResponseCompressionMiddleware.isCompressible(encoded))
        #expect(!ResponseCompressionMiddleware.isCompressible(Response(status: .noContent, headers: [.contentType: contentType])))
    }

    @Test func aLargeAnswerIsGzippedForAClientThatAcceptsItAndReadsTheSameAsThePlainOne() async throws {
        let fixture = try ServiceFixture()
        let introspection = #"{"query": "{ __schema { types { name fields { name } } } }"}"#
        try await fixture.test { client in
            let plain = try await client.send(.post, "/graphql", token: fixture.adminToken, json: introspection)
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil)
            #expect(plain.body.readableBytes > ResponseCompressionMiddleware.minimumLength)
            #expect(plain.headers[values: .vary].contains("Accept-Encoding"))

            let zipped = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.acceptEncoding: "gzip, deflate"], json: introspection)
            #expect(zipped.status == .ok && zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.headers[values: .vary].contains("Accept-Encoding"))
            #expect(zipped.headers[.contentLength] == String(zipped.body.readableBytes))
            #expect(zipped.body.readableBytes < plain.body.readableBytes / 4)
            var compressed = zipped.body
            let unzipped = try compressed.decompress(with: .gzip())
            #expect(String(buffer: unzipped) == plain.text)

            let refused = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.acceptEncoding: "gzip;q=0"], json: introspection)
            #expect(refused.headers[.contentEncoding] == nil && refused.text == plain.text)
        }
    }

    @Test func aSmallAnswerGoesAsItIs() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let small = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.acceptEncoding: "gzip"], json: #"{"query": "{ __typename }"}"#)
            #expect(small.status == .ok && small.headers[.contentEncoding] == nil)
            // Never compressed, so it does not vary by what the client accepts.
            #expect(!small.headers[values: .vary].contains("Accept-Encoding"))
            #expect(small.text.contains("__typename"))
        }
    }

    /// HEAD carries the headers its GET would, but for those only the content decides: its
    /// answer goes uncompressed, and says it varies by what the client accepts as GET's does.
    @Test func aHeadAnswerIsNotCompressedButVariesAsItsGetDoes() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let got = try await client.send(.get, "/openapi.yaml", token: nil, headers: [.acceptEncoding: "gzip"])
            #expect(got.headers[.contentEncoding] == "gzip")
            let head = try await client.send(.head, "/openapi.yaml", token: nil, headers: [.acceptEncoding: "gzip"])
            #expect(head.status == .ok && head.headers[.contentEncoding] == nil && head.body.readableBytes == 0)
            #expect(head.headers[values: .vary].contains("Accept-Encoding"))
        }
    }
}
