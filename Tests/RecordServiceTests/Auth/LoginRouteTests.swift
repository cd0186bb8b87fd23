import Foundation
import HummingbirdTesting
import RecordKit
import TestSupport
import Testing

@testable import RecordService

/// `POST /auth/login`: a user's name and password for a user token, bounded per name and address.
@Suite("Login")
struct LoginRouteTests {
    static let password = "correct horse battery"

    static func login(_ user: String, _ password: String) -> String {
        #"{"user": "\#(user)", "password": "\#(password)"}"#
    }

    @Test func theRightPasswordGetsAUserTokenThatActsAsTheUser() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("ann"), password: Self.password)
        try await fixture.test { client in
            let answer = try await client.send(.post, "/auth/login", token: nil, json: Self.login("ann", Self.password))
            #expect(answer.status == .ok)
            let body = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: String]
            let token = try #require(body?["ckWebAuthToken"])
            #expect(AccessToken(token) != nil)
            #expect(body?["userRecordName"] == CloudKitUser.recordName(of: .user("ann")))
            let current = try await client.send(
                .get, "/database/1/\(ServiceConfiguration.defaultContainer)/development/public/users/current?ckWebAuthToken=\(token)", token: nil)
            #expect(current.status == .ok)
            #expect(current.text.contains(CloudKitUser.recordName(of: .user("ann"))))
        }
    }

    @Test func aWrongPasswordAndAnUnknownUserGetTheSameRefusal() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("ann"), password: Self.password)
        try await fixture.test { client in
            let wrong = try await client.send(.post, "/auth/login", token: nil, json: Self.login("ann", "not the password"))
            let unknown = try await client.send(.post, "/auth/login", token: nil, json: Self.login("bob", Self.password))
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.text.contains("AUTHENTICATION_FAILED"))
            #expect(
                wrong.text.replacingOccurrences(of: #""uuid":"[^"]*""#, with: "", options: .regularExpression)
                    == unknown.text.replacingOccurrences(of: #""uuid":"[^"]*""#, with: "", options: .regularExpression))
            #expect(!wrong.text.contains("not the password"))
        }
    }

    @Test func attemptsPastTheLimitAreThrottledEvenWithTheRightPassword() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("ann"), password: Self.password)
        try await fixture.test { client in
            for _ in 0..<fixture.state.logins.limit {
                let refused = try await client.send(.post, "/auth/login", token: nil, json: Self.login("ann", "guess guess"))
                #expect(refused.status == .unauthorized)
            }
            let throttled = try await client.send(.post, "/auth/login", token: nil, json: Self.login("ann", Self.password))
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.text.contains("THROTTLED"))
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // CloudKit's error dictionary says it too, in seconds.
            #expect(throttled.text.contains(#""retryAfter":\#(throttled.headers[.retryAfter] ?? "")}"#), "\(throttled.text)")
        }
    }

    @Test func aBodyWithoutNameOrPasswordIsABadRequest() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let answer = try await client.send(.post, "/auth/login", token: nil, json: #"{"user": "ann"}"#)
            #expect(answer.status == .badRequest)
            // A client without a credential makes the service inflate nothing.
            let coded = try await client.send(
                .post, "/auth/login", token: nil, headers: [.contentEncoding: "gzip"], json: Self.login("ann", Self.password))
            #expect(coded.status == .unsupportedMediaType && coded.headers[.acceptEncoding] == "identity")
            #expect(coded.text.contains("Content-Encoding 'gzip' is not one this service reads; send the body as it is"))
        }
    }
}

/// The sliding window of ``LoginThrottle``, per name and per address.
@Suite("Login throttle")
struct LoginThrottleTests {
    @Test func aNameIsRefusedPastItsLimitUntilTheWindowMoves() {
        let throttle = LoginThrottle(limit: 2, addressLimit: 100, window: .seconds(60))
        let start = ContinuousClock.now
        #expect(throttle.admit(name: "ann", address: "a", now: start) == nil)
        #expect(throttle.admit(name: "ann", address: "b", now: start + .seconds(1)) == nil)
        #expect(throttle.admit(name: "ann", address: "c", now: start + .seconds(2)) == .seconds(58))
        #expect(throttle.admit(name: "bob", address: "c", now: start + .seconds(2)) == nil)
        #expect(throttle.admit(name: "ann", address: "c", now: start + .seconds(61)) == nil)
    }

    @Test func anAddressIsRefusedPastItsLimitWhateverTheName() {
        let throttle = LoginThrottle(limit: 100, addressLimit: 3, window: .seconds(60))
        let start = ContinuousClock.now
        for (index, name) in ["a", "b", "c"].enumerated() {
            #expect(throttle.admit(name: name, address: "10.0.0.1", now: start + .seconds(index)) == nil)
        }
        #expect(throttle.admit(name: "d", address: "10.0.0.1", now: start + .seconds(3)) != nil)
        #expect(throttle.admit(name: "d", address: "10.0.0.2", now: start + .seconds(3)) == nil)
    }
}

/// ``UserStore``: bcrypt hashes, never passwords.
@Suite("Users")
struct UserStoreTests {
    @Test func thePasswordIsKeptOnlyAsABcryptHash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-users-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try UserStore(folder: try DataFolder(path: folder.path, newDatabaseSchema: try Schema.shopping))
        try store.add(try UserName("ann"), password: "a secret password 42")
        #expect(try store.verify(try UserName("ann"), password: "a secret password 42"))
        #expect(try !store.verify(try UserName("ann"), password: "a secret password 43"))
        let bytes =
            try Data(contentsOf: folder.appendingPathComponent("accounts.sqlite"))
            + ((try? Data(contentsOf: folder.appendingPathComponent("accounts.sqlite-wal"))) ?? Data())
        #expect(bytes.range(of: Data("a secret password 42".utf8)) == nil)
    }

    @Test func namesOutsideTheAlphabetAreRefused() {
        for bad in ["", "../x", "a/b", ".hidden", "-x", String(repeating: "a", count: 65), "ann smith"] {
            #expect(throws: (any Error).self) { try UserName(bad) }
        }
        #expect(throws: Never.self) { try UserName("ann.smith_2-b") }
    }

    @Test func shortAndOverlongPasswordsAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-users-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try UserStore(folder: try DataFolder(path: folder.path, newDatabaseSchema: try Schema.shopping))
        #expect(throws: (any Error).self) { try store.add(try UserName("ann"), password: "short") }
        #expect(throws: (any Error).self) { try store.add(try UserName("ann"), password: String(repeating: "x", count: 73)) }
    }
}
