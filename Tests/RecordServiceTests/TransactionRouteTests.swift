import Foundation
import HummingbirdTesting
import Testing

@testable import RecordService

/// Writes under an `Idempotency-Key`: stored with the writes, replayed to a retry.
@Suite("Transactions")
struct TransactionRouteTests {
    static let createList = GraphQLRouteTests.createList
    static let transactionsPath = "/database/1/\(ServiceConfiguration.defaultContainer)/development/public/transactions"

    @Test func aRetryGetsTheStoredResponseAndAppliesNothing() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let first = try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "k1"], json: Self.createList)
            #expect(first.status == .ok)
            #expect(first.headers[.idempotentReplayed] == nil)
            let retry = try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "k1"], json: Self.createList)
            #expect(retry.status == .ok)
            #expect(retry.headers[.idempotentReplayed] == "true")
            #expect(retry.text == first.text)
            // Without the key, creating L1 again fails: it exists once.
            let again = try await client.send(.post, "/graphql", token: fixture.adminToken, json: Self.createList)
            #expect(again.text.contains("serverRecordChanged"))
        }
    }

    @Test func theSameKeyWithAnotherRequestIsUnprocessable() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "k1"], json: Self.createList)
            let other = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "k1"],
                json: #"{"query":"mutation { createLists(recordName: \"L2\", fields: {name: \"Hardware\"}) { name } }"}"#
            )
            #expect(other.status == .unprocessableContent)
            // A request error: nothing ran, so there is no `data`, not even null; the key is
            // named as it was sent, not within the caller's scope.
            #expect(
                other.text
                    == #"{"errors":[{"message":"the transaction ID 'k1' was used for a different request; send a new one for a new request","extensions":{"code":"transactionConflict"}}]}"#
            )
        }
    }

    @Test func theSameTransactionDirectiveWithAnotherRequestIsUnprocessable() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let first = #"{"query":"mutation @transaction(id: \"t1\") { createLists(fields: {name: \"Groceries\"}) { name } }"}"#
            let other = #"{"query":"mutation @transaction(id: \"t1\") { createLists(fields: {name: \"Hardware\"}) { name } }"}"#
            #expect(try await client.send(.post, "/graphql", token: fixture.adminToken, json: first).status == .ok)
            let refused = try await client.send(.post, "/graphql", token: fixture.adminToken, json: other)
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.text
                    == #"{"errors":[{"message":"the transaction ID 't1' was used for a different request; send a new one for a new request","extensions":{"code":"transactionConflict"}}]}"#
            )
        }
    }

    @Test func keysBelongToOnePrincipal() async throws {
        let fixture = try ServiceFixture()
        let user = try fixture.token(for: .user("ann"), label: "ann")
        try await fixture.test { client in
            try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "k1"], json: Self.createList)
            // Ann's k1 is another transaction: it runs, and L1 exists already.
            let anns = try await client.send(.post, "/graphql", token: user, headers: [.idempotencyKey: "k1"], json: Self.createList)
            #expect(anns.headers[.idempotentReplayed] == nil)
            #expect(anns.text.contains("serverRecordChanged"))
            let listed = try await client.send(.get, Self.transactionsPath, token: user)
            #expect(listed.text == #"{"transactions":[]}"#)
        }
    }

    @Test func storedTransactionsAreListedShownAndForgotten() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "k1"], json: Self.createList)
            let listed = try await client.send(.get, Self.transactionsPath, token: fixture.adminToken)
            #expect(listed.status == .ok)
            #expect(listed.text.contains(#""id":"k1""#))
            let shown = try await client.send(.get, Self.transactionsPath + "/k1", token: fixture.adminToken)
            #expect(shown.status == .ok)
            #expect(shown.text.contains("Groceries"))
            let forgotten = try await client.send(.delete, Self.transactionsPath + "/k1", token: fixture.adminToken)
            #expect(forgotten.status == .noContent)
            let gone = try await client.send(.get, Self.transactionsPath + "/k1", token: fixture.adminToken)
            #expect(gone.status == .notFound)
            #expect(gone.text.contains(#""serverErrorCode":"NOT_FOUND""#))
            // The engine's remedy in the service's words, not the REPL's ("list them with: transactions").
            #expect(gone.text.contains("; list the stored transactions with GET …/transactions"), "\(gone.text)")
            // Named as the caller gave it, not under the scope it is stored in.
            #expect(gone.text.contains("there is no stored transaction 'k1';"), "\(gone.text)")
        }
    }

    /// A key holding characters a path reserves is reached at its percent-encoded path.
    @Test func aKeyWithReservedCharactersIsShownAndForgottenAtItsEncodedPath() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.idempotencyKey: "a/b%c?d"], json: Self.createList)
            let path = Self.transactionsPath + "/a%2Fb%25c%3Fd"
            let shown = try await client.send(.get, path, token: fixture.adminToken)
            #expect(shown.status == .ok, "\(shown.text)")
            #expect(shown.text.contains(#""id":"a/b%c?d""#))
            #expect(try await client.send(.delete, path, token: fixture.adminToken).status == .noContent)
            #expect(try await client.send(.get, path, token: fixture.adminToken).status == .notFound)
        }
    }
}
