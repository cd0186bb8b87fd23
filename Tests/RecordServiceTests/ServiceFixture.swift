import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import RecordKit
import TestSupport

@testable import RecordService

/// A service over a temporary data folder, with an admin token, for route tests in process.
struct ServiceFixture {
    let folder: URL
    let state: ServiceState
    let adminToken: String

    init(configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-service-\(UUID().uuidString)")
        var configuration = ServiceConfiguration(port: 0, data: try DataFolder(path: folder.path, newDatabaseSchema: try Schema.shopping))
        configure(&configuration)
        state = try ServiceState(configuration: configuration)
        adminToken = try state.tokens.create(for: .admin, label: "test-admin").token.text
    }

    /// A token for `principal`.
    func token(for principal: Principal, label: String) throws -> String {
        try state.tokens.create(for: principal, label: label).token.text
    }

    /// Runs `body` with a client of the router in process, then removes the data folder.
    func test<T>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        defer { try? FileManager.default.removeItem(at: folder) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = try await buildApplication(state, logger: logger)
        return try await app.test(.router, body)
    }
}

extension TestClientProtocol {
    /// A request with `token` as its bearer credential and `body` as JSON.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String?, headers: HTTPFields = [:], json body: String? = nil
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer " + token }
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }
}
