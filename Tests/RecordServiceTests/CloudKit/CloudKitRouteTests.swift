import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RecordKit
import Testing

@testable import RecordService

/// The CloudKit endpoints in process, over a temporary data folder: every endpoint, every
/// operation type, every error status the service gives.
@Suite struct CloudKitRouteTests {
    static let database = "/database/1/iCloud.shop/development/public/"
    static let production = "/database/1/iCloud.shop/production/public/"

    static func json(_ response: TestResponse) throws -> JSONValue {
        try JSONValue.parse(Data(buffer: response.body))
    }

    static func create(_ type: String, _ name: String, _ fields: String) -> String {
        #"{"operationType": "create", "record": {"recordType": "\#(type)", "recordName": "\#(name)", "fields": \#(fields)}}"#
    }

    static func modify(_ operations: String..., atomic: Bool = true) -> String {
        #"{"atomic": \#(atomic), "operations": [\#(operations.joined(separator: ", "))]}"#
    }

    static let seed = modify(
        create("Lists", "L1", #"{"name": {"value": "Groceries"}}"#),
        create("Items", "I1", #"{"name": {"value": "Milk"}, "list": {"value": {"recordName": "L1", "action": "DELETE_SELF"}}}"#),
        create("Items", "I2", #"{"name": {"value": "Apples"}, "list": {"value": {"recordName": "L1", "action": "DELETE_SELF"}}}"#)
    )

    static func expectError(
        _ response: TestResponse, _ status: HTTPResponse.Status, _ code: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
        let body = try json(response)
        #expect(body["serverErrorCode"] == .string(code), sourceLocation: sourceLocation)
        #expect(body["reason"] != nil && body["uuid"] != nil, sourceLocation: sourceLocation)
    }

    /// Expects the one operation `response` answers to have failed with `code`, in its place in
    /// `records`, the response 200 — as CloudKit answers a failed operation.
    static func expectFailedOperation(_ response: TestResponse, _ code: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(response.status == .ok, "\(response.text)", sourceLocation: sourceLocation)
        let records = try json(response)["records"]?.arrayValue ?? []
        #expect(records.count == 1, "\(response.text)", sourceLocation: sourceLocation)
        #expect(records.first?["serverErrorCode"] == .string(code) && records.first?["reason"] != nil, "\(response.text)", sourceLocation: sourceLocation)
    }

    /// The `serverErrorCode` of each operation a `records/modify` response answers (`nil` for
    /// one applied), expecting the response 200 as CloudKit answers failed operations.
    static func operationCodes(_ response: TestResponse, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String?] {
        #expect(response.status == .ok, "\(response.text)", sourceLocation: sourceLocation)
        return (try json(response)["records"]?.arrayValue ?? []).map { $0["serverErrorCode"]?.stringValue }
    }

    @Test func queryFiltersSortsAndPages() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            #expect(try await client.send(.post, Self.database + "records/modify", token: token, json: Self.seed).status == .ok)
            let query =
                #"{"query": {"recordType": "Items", "filterBy": [{"comparator": "EQUALS", "fieldName": "list", "fieldValue": {"value": {"recordName": "L1"}}}], "sortBy": [{"fieldName": "name"}]}, "resultsLimit": 1"#
            let first = try await client.send(.post, Self.database + "records/query", token: token, json: query + "}")
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "application/json")
            let page = try Self.json(first)
            guard case .array(let records)? = page["records"], case .string(let marker)? = page["continuationMarker"] else {
                Issue.record("no page: \(first.text)")
                return
            }
            #expect(records.map { $0["fields"]?["name"]?["value"] } == [.string("Apples")])
            #expect(!first.text.contains("null"))
            let second = try Self.json(
                try await client.send(.post, Self.database + "records/query", token: token, json: query + #", "continuationMarker": "\#(marker)"}"#))
            #expect(second["records"]?.serialized.contains("Milk") == true)
            #expect(second["continuationMarker"] == nil)
        }
    }

    @Test func modifyAppliesEveryOperationTypeWithChangeTags() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let created = try Self.json(try await client.send(.post, Self.database + "records/modify", token: token, json: Self.seed))
            guard case .string(let tag)? = created["records"]?.arrayValue?[0]["recordChangeTag"] else { Issue.record("no tag"); return }
            func modify(_ operation: String) async throws -> TestResponse {
                try await client.send(.post, Self.database + "records/modify", token: token, json: Self.modify(operation))
            }
            let updated = try await modify(
                #"{"operationType": "update", "record": {"recordName": "L1", "recordChangeTag": "\#(tag)", "fields": {"name": {"value": "Food"}}}}"#)
            #expect(updated.status == .ok)
            try Self.expectFailedOperation(
                try await modify(
                    #"{"operationType": "update", "record": {"recordName": "L1", "recordChangeTag": "\#(tag)", "fields": {"name": {"value": "Lost"}}}}"#),
                "CONFLICT")
            #expect(
                try await modify(
                    #"{"operationType": "forceUpdate", "record": {"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": "New"}}}}"#
                ).status == .ok)
            try Self.expectFailedOperation(
                try await modify(
                    #"{"operationType": "replace", "record": {"recordType": "Lists", "recordName": "L2", "recordChangeTag": "stale", "fields": {"name": {"value": "R"}}}}"#
                ), "CONFLICT")
            #expect(
                try await modify(
                    #"{"operationType": "forceReplace", "record": {"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": "Replaced"}}}}"#
                ).status == .ok)
            try Self.expectFailedOperation(
                try await modify(#"{"operationType": "delete", "record": {"recordName": "L1", "recordChangeTag": "\#(tag)"}}"#), "CONFLICT")
            let deleted = try await modify(#"{"operationType": "forceDelete", "record": {"recordName": "L1"}}"#)
            #expect(
                deleted.text
                    == #"{"records":[{"deleted":true,"recordName":"L1","recordType":"Lists","zoneID":{"ownerRecordName":"__defaultOwner__","zoneName":"_defaultZone"}}]}"#
            )
            try Self.expectFailedOperation(try await modify(#"{"operationType": "delete", "record": {"recordName": "I1"}}"#), "NOT_FOUND")
            try Self.expectFailedOperation(try await modify(Self.create("Lists", "L2", #"{"name": {"value": "Dup"}}"#)), "EXISTS")
            try Self.expectFailedOperation(
                try await modify(
                    Self.create("Items", "I9", #"{"name": {"value": "Ghost"}, "list": {"value": {"recordName": "ghost", "action": "DELETE_SELF"}}}"#)),
                "VALIDATING_REFERENCE_ERROR")
            try Self.expectFailedOperation(try await modify(Self.create("Lists", "L3", #"{"name": {"value": 3}}"#)), "BAD_REQUEST")
            let partial = try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: Self.modify(
                    Self.create("Lists", "L4", #"{"name": {"value": "Kept"}}"#), Self.create("Lists", "L2", #"{"name": {"value": "Dup"}}"#), atomic: false
                ))
            #expect(partial.status == .ok)
            #expect(try Self.json(partial)["records"]?.arrayValue?[1].serialized.contains(#""serverErrorCode":"EXISTS""#) == true)
        }
    }

    /// A request with `numbersAsStrings` (MistKit sends it on every query and modify) gives and
    /// gets numbers as strings of their digits, in filters too, on every endpoint returning
    /// records; without it they are numbers.
    @Test func numbersAsStringsComeAndGoAsStrings() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            #expect(try await client.send(.post, Self.database + "records/modify", token: token, json: Self.seed).status == .ok)
            let big = "9007199254740993"
            let modify =
                #"{"numbersAsStrings": true, "operations": [{"operationType": "forceUpdate", "record": {"recordType": "Items", "recordName": "I1", "fields": {"count": {"value": "\#(big)", "type": "INT64"}}}}]}"#
            let saved = try await client.send(.post, Self.database + "records/modify", token: token, json: modify)
            #expect(saved.text.contains(#""count":{"type":"INT64","value":"\#(big)"}"#), "\(saved.text)")
            let filter = #"{"comparator": "EQUALS", "fieldName": "count", "fieldValue": {"value": "\#(big)"}}"#
            let query = #"{"numbersAsStrings": true, "query": {"recordType": "Items", "filterBy": [\#(filter)]}}"#
            let found = try await client.send(.post, Self.database + "records/query", token: token, json: query)
            #expect(try Self.json(found)["records"]?.arrayValue?.map { $0["recordName"] } == [.string("I1")], "\(found.text)")
            #expect(found.text.contains(#""value":"\#(big)""#), "\(found.text)")
            let lookup = #"{"numbersAsStrings": true, "records": [{"recordName": "I1"}]}"#
            #expect(try await client.send(.post, Self.database + "records/lookup", token: token, json: lookup).text.contains(#""value":"\#(big)""#))
            let changes = try await client.send(.post, Self.database + "records/changes", token: token, json: #"{"numbersAsStrings": true}"#)
            #expect(changes.text.contains(#""value":"\#(big)""#), "\(changes.text)")
            let plain = try await client.send(.post, Self.database + "records/lookup", token: token, json: #"{"records": [{"recordName": "I1"}]}"#)
            #expect(plain.text.contains(#""count":{"type":"INT64","value":\#(big)}"#), "\(plain.text)")
            // Without it, a string is not a number, and the flag is a boolean.
            let unflagged = modify.replacingOccurrences(of: #""numbersAsStrings": true, "#, with: "")
            #expect(try Self.operationCodes(try await client.send(.post, Self.database + "records/modify", token: token, json: unflagged)) == ["BAD_REQUEST"])
            try Self.expectError(
                try await client.send(.post, Self.database + "records/lookup", token: token, json: #"{"numbersAsStrings": "yes", "records": []}"#),
                .badRequest, "BAD_REQUEST")
        }
    }

    @Test func modifyWithAnIdempotencyKeyIsReplayed() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let body = Self.modify(Self.create("Lists", "L1", #"{"name": {"value": "Once"}}"#))
            let first = try await client.send(
                .post, Self.database + "records/modify", token: token, headers: [HTTPField.Name("Idempotency-Key")!: "k1"], json: body)
            let again = try await client.send(
                .post, Self.database + "records/modify", token: token, headers: [HTTPField.Name("Idempotency-Key")!: "k1"], json: body)
            #expect(first.status == .ok && again.status == .ok)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(again.text == first.text)
            let other = try await client.send(
                .post, Self.database + "records/modify", token: token, headers: [HTTPField.Name("Idempotency-Key")!: "k1"],
                json: Self.modify(Self.create("Lists", "L2", #"{"name": {"value": "Other"}}"#)))
            try Self.expectError(other, .conflict, "CONFLICT")
        }
    }

    @Test func lookupZonesAndTheCurrentUser() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await client.send(.post, Self.database + "records/modify", token: token, json: Self.seed)
            let lookup = try await client.send(
                .post, Self.database + "records/lookup", token: token,
                json: #"{"records": [{"recordName": "I1"}, {"recordName": "nope"}], "desiredKeys": ["name"]}"#)
            let records = try Self.json(lookup)["records"]?.arrayValue ?? []
            #expect(records.first?["fields"]?.serialized == #"{"name":{"type":"STRING","value":"Milk"}}"#)
            #expect(records.last?["serverErrorCode"] == .string("NOT_FOUND"))
            let zones = try await client.send(.get, Self.database + "zones/list", token: token)
            #expect(try Self.json(zones)["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"] == .string("_defaultZone"))
            let looked = try Self.json(
                try await client.send(
                    .post, Self.database + "zones/lookup", token: token, json: #"{"zones": [{"zoneName": "_defaultZone"}, {"zoneName": "Photos"}]}"#))
            #expect(looked["zones"]?.arrayValue?.map { $0["serverErrorCode"] } == [nil, .string("ZONE_NOT_FOUND")])
            try Self.expectError(
                try await client.send(
                    .post, Self.database + "records/query", token: token, json: #"{"zoneID": {"zoneName": "Photos"}, "query": {"recordType": "Items"}}"#),
                .notFound, "ZONE_NOT_FOUND")
            let user = try Self.json(try await client.send(.get, Self.database + "users/current", token: token))
            // An admin acts as the owner, whom CloudKit names __defaultOwner__.
            #expect(user["userRecordName"] == .string("__defaultOwner__"))
        }
    }

    @Test func anUploadedAssetIsSavedAndDownloaded() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let tokens = try Self.json(
                try await client.send(
                    .post, Self.database + "assets/upload", token: token,
                    json: #"{"tokens": [{"recordType": "Photos", "fieldName": "image", "recordName": "P1"}]}"#))
            guard case .string(let url)? = tokens["tokens"]?.arrayValue?.first?["url"],
                let path = url.firstRange(of: "/database/").map({ String(url[$0.lowerBound...]) })
            else {
                Issue.record("no url: \(tokens.serialized)")
                return
            }
            let uploaded = try await client.execute(
                uri: path, method: .post, headers: [.authorization: "Bearer " + token], body: ByteBuffer(string: "picture bytes"))
            guard let single = try Self.json(uploaded)["singleFile"] else { Issue.record("no receipt: \(uploaded.text)"); return }
            let saved = try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: Self.modify(Self.create("Photos", "P1", #"{"image": {"value": \#(single.serialized)}}"#)))
            #expect(saved.status == .ok, "\(saved.text)")
            let image = try Self.json(saved)["records"]?.arrayValue?.first?["fields"]?["image"]
            #expect(image?["type"] == .string("ASSETID"))
            guard case .string(let download)? = image?["value"]?["downloadURL"],
                let downloadPath = download.firstRange(of: "/database/").map({ String(download[$0.lowerBound...]) })
            else {
                Issue.record("no download URL")
                return
            }
            let content = try await client.send(.get, downloadPath, token: token)
            #expect(content.text == "picture bytes")
            // Saved back as it was read (its asset as the record holds it), the record keeps it.
            let tag = try Self.json(saved)["records"]?.arrayValue?.first?["recordChangeTag"]?.serialized ?? "null"
            let fields = #"{"image": \#(image?.serialized ?? "null"), "caption": {"value": "again"}}"#
            let record = #"{"recordType": "Photos", "recordName": "P1", "recordChangeTag": \#(tag), "fields": \#(fields)}"#
            let replace = #"{"operations": [{"operationType": "replace", "record": \#(record)}]}"#
            let replaced = try await client.send(.post, Self.database + "records/modify", token: token, json: replace)
            #expect(replaced.status == .ok, "\(replaced.text)")
            let kept = try Self.json(replaced)["records"]?.arrayValue?.first?["fields"]?["image"]?["value"]?["fileChecksum"]
            #expect(kept != nil && kept == image?["value"]?["fileChecksum"])
            // A checksum no stored asset has is refused, naming the field.
            let unknown = #"{"image": {"value": {"fileChecksum": "\#(String(repeating: "ab", count: 32))", "size": 13}}}"#
            let forged = #"{"operations": [{"operationType": "create", "record": {"recordType": "Photos", "recordName": "P2", "fields": \#(unknown)}}]}"#
            let refused = try await client.send(.post, Self.database + "records/modify", token: token, json: forged)
            #expect(try Self.operationCodes(refused) == ["BAD_REQUEST"])
            #expect(refused.text.contains("Photos.image"), "\(refused.text)")
        }
    }

    /// The paths of `count` upload URLs for `Photos.image`.
    static func uploadPaths(_ client: some TestClientProtocol, token: String, count: Int) async throws -> [String] {
        let request = Array(repeating: #"{"recordType": "Photos", "fieldName": "image"}"#, count: count).joined(separator: ", ")
        let tokens = try Self.json(try await client.send(.post, Self.database + "assets/upload", token: token, json: #"{"tokens": [\#(request)]}"#))
        return (tokens["tokens"]?.arrayValue ?? []).compactMap { entry -> String? in
            guard case .string(let url)? = entry["url"] else { return nil }
            return url.firstRange(of: "/database/").map { String(url[$0.lowerBound...]) }
        }
    }

    @Test func anUploadIsTakenAsItIsAndOneInAContentEncodingIsRefusedSayingSo() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let path = try #require(try await Self.uploadPaths(client, token: fixture.adminToken, count: 1).first)
            let encoded = try await client.execute(
                uri: path, method: .post, headers: [.authorization: "Bearer " + fixture.adminToken, .contentEncoding: "gzip"],
                body: ByteBuffer(string: "picture bytes"))
            #expect(encoded.status == .unsupportedMediaType && encoded.headers[.acceptEncoding] == "identity")
            #expect(encoded.text.contains("Content-Encoding 'gzip' is not one this service reads; send the body as it is"))
            // The refused upload used no token: the same URL takes the file as it is.
            let plain = try await client.execute(
                uri: path, method: .post, headers: [.authorization: "Bearer " + fixture.adminToken], body: ByteBuffer(string: "picture bytes"))
            #expect(plain.status == .ok, "\(plain.text)")
        }
    }

    @Test func anUploadWaitsInAFileOfTheDataFolderAndATokenIsGoodForOneUpload() async throws {
        let fixture = try ServiceFixture { $0.maximumUploadSize = 1024 }
        let token = fixture.adminToken
        let uploads = fixture.folder.appendingPathComponent("uploads").path
        try await fixture.test { client in
            let paths = try await Self.uploadPaths(client, token: token, count: 2)
            try #require(paths.count == 2)
            let content = String(repeating: "0123456789", count: 100)
            let uploaded = try await client.execute(
                uri: paths[0], method: .post, headers: [.authorization: "Bearer " + token], body: ByteBuffer(string: content))
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            #expect(try Self.json(uploaded)["singleFile"]?["fileChecksum"] == .string(Asset(content: Data(content.utf8)).sha256))
            let files = try FileManager.default.contentsOfDirectory(atPath: uploads)
            try #require(files.count == 1)
            #expect(FileManager.default.contents(atPath: uploads + "/" + files[0]) == Data(content.utf8))
            let again = try await client.execute(uri: paths[0], method: .post, headers: [.authorization: "Bearer " + token], body: ByteBuffer(string: "x"))
            try Self.expectError(again, .notFound, "NOT_FOUND")
            // A body past the limit, sent without a length, is refused as it streams, and leaves no file.
            let tooLarge = try await client.execute(
                uri: paths[1], method: .post, headers: [.authorization: "Bearer " + token, .transferEncoding: "chunked"],
                body: ByteBuffer(string: content + content))
            try Self.expectError(tooLarge, .contentTooLarge, "QUOTA_EXCEEDED")
            #expect(try FileManager.default.contentsOfDirectory(atPath: uploads) == files)
        }
    }

    /// The path of a new upload URL for Photos.image.
    static func uploadPath(_ client: some TestClientProtocol, token: String) async throws -> String {
        let tokens = try Self.json(
            try await client.send(
                .post, Self.database + "assets/upload", token: token, json: #"{"tokens": [{"recordType": "Photos", "fieldName": "image"}]}"#))
        guard case .string(let url)? = tokens["tokens"]?.arrayValue?.first?["url"],
            let path = url.firstRange(of: "/database/").map({ String(url[$0.lowerBound...]) })
        else { throw CloudKitError(.badRequest, "no upload url in \(tokens.serialized)") }
        return path
    }

    @Test func anUploadURLTakesAnAssetLargerThanTheRequestBodyLimit() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let size = 10 << 20
            #expect(size > ServiceConfiguration.defaultMaximumBodySize)
            let path = try await Self.uploadPath(client, token: token)
            let uploaded = try await client.execute(
                uri: path, method: .post,
                headers: [.authorization: "Bearer " + token, .contentType: "application/octet-stream", .contentLength: "\(size)"],
                body: ByteBuffer(repeating: 0x61, count: size))
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            guard let single = try Self.json(uploaded)["singleFile"] else { Issue.record("no receipt: \(uploaded.text)"); return }
            #expect(single["size"] == .integer(Int64(size)))
            let saved = try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: Self.modify(Self.create("Photos", "P1", #"{"image": {"value": \#(single.serialized)}}"#)))
            #expect(saved.status == .ok, "\(saved.text)")
            // Every other route keeps the request limit.
            let other = try await client.execute(
                uri: Self.database + "records/modify", method: .post,
                headers: [.authorization: "Bearer " + token, .contentType: "application/json", .contentLength: "\(size)"],
                body: ByteBuffer(repeating: 0x20, count: size))
            try Self.expectError(other, .contentTooLarge, "QUOTA_EXCEEDED")
            #expect(other.text.contains("at most \(ServiceConfiguration.defaultMaximumBodySize) bytes per request"), "\(other.text)")
        }
    }

    @Test func anAssetIsNoLongerServedOnceNoRecordHoldsItButItsReceiptStillWorks() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let path = try await Self.uploadPath(client, token: token)
            let uploaded = try await client.execute(
                uri: path, method: .post, headers: [.authorization: "Bearer " + token], body: ByteBuffer(string: "secret bytes"))
            guard let single = try Self.json(uploaded)["singleFile"], case .string(let checksum)? = single["fileChecksum"] else {
                Issue.record("no receipt: \(uploaded.text)")
                return
            }
            let save = Self.modify(Self.create("Photos", "P1", #"{"image": {"value": \#(single.serialized)}}"#))
            #expect(try await client.send(.post, Self.database + "records/modify", token: token, json: save).status == .ok)
            let download = Self.database + "assets/download/" + checksum
            #expect(try await client.send(.get, download, token: token).text == "secret bytes")
            let delete = #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "P1"}}]}"#
            #expect(try await client.send(.post, Self.database + "records/modify", token: token, json: delete).status == .ok)
            try Self.expectError(try await client.send(.get, download, token: token), .notFound, "NOT_FOUND")
            // The upload itself is kept until its receipt expires: saved again, it is served again.
            #expect(try await client.send(.post, Self.database + "records/modify", token: token, json: save).status == .ok)
            #expect(try await client.send(.get, download, token: token).text == "secret bytes")
        }
    }

    @Test func anUploadLargerThanAnAssetIsRefusedNamingTheAssetLimit() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let size = Limits.maximumAssetBytes + 1
            let path = try await Self.uploadPath(client, token: token)
            let refused = try await client.execute(
                uri: path, method: .post,
                headers: [.authorization: "Bearer " + token, .contentType: "application/octet-stream", .contentLength: "\(size)"],
                body: ByteBuffer(repeating: 0x61, count: size))
            try Self.expectError(refused, .contentTooLarge, "QUOTA_EXCEEDED")
            #expect(refused.text.contains("an asset holds at most \(Limits.maximumAssetBytes) bytes"), "\(refused.text)")
        }
    }

    @Test func aSignedUploadIsReadWholeOnlyWithinTheRequestLimit() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let size = ServiceConfiguration.defaultMaximumBodySize + 1
            let path = try await Self.uploadPath(client, token: token)
            // Refused by its length before any of it is read (or its key looked up).
            let headers: HTTPFields = [
                .cloudKitKeyID: "backend", .cloudKitDate: ISO8601DateFormatter().string(from: Date()), .cloudKitSignature: "c2lnbmF0dXJl",
                .contentType: "application/octet-stream", .contentLength: "\(size)",
            ]
            let refused = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(repeating: 0x61, count: size))
            try Self.expectError(refused, .contentTooLarge, "QUOTA_EXCEEDED")
            #expect(refused.text.contains("signed request"), "\(refused.text)")
        }
    }

    @Test func filesAnEarlierRunLeftInTheUploadsFolderAreDeletedAtStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-uploads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("left-over").path, contents: Data("old".utf8)))
        let uploads = try AssetUploads(folder: folder.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.folder).isEmpty)
        #expect(uploads.content(receipt: "made-up") == nil)
    }

    @Test func productionRefusesUnknownFieldsThatDevelopmentAdds() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let write = Self.modify(Self.create("Lists", "L1", #"{"name": {"value": "Groceries"}, "color": {"value": "red"}}"#))
            let refused = try await client.send(.post, Self.production + "records/modify", token: token, json: write)
            try Self.expectError(refused, .badRequest, "BAD_REQUEST")
            #expect(refused.text.contains("Lists.color"))
            let added = try await client.send(.post, Self.database + "records/modify", token: token, json: write)
            #expect(try Self.json(added)["records"]?.arrayValue?.first?["fields"]?["color"]?.serialized == #"{"type":"STRING","value":"red"}"#)
        }
    }

    @Test func credentialsAndPaths() async throws {
        let fixture = try ServiceFixture()
        let api = try fixture.token(for: .world, label: "api")
        try await fixture.test { client in
            let query = #"{"query": {"recordType": "Lists"}}"#
            try Self.expectError(try await client.send(.post, Self.database + "records/query", token: nil, json: query), .unauthorized, "AUTHENTICATION_FAILED")
            #expect(try await client.send(.post, Self.database + "records/query", token: api, json: query).status == .ok)
            try Self.expectError(try await client.send(.post, Self.database + "records/modify", token: api, json: Self.seed), .forbidden, "ACCESS_DENIED")
            try Self.expectError(
                try await client.send(.post, "/database/1/iCloud.other/development/public/records/query", token: api, json: query), .notFound, "NOT_FOUND")
            try Self.expectError(try await client.send(.post, Self.database + "records/query", token: api, json: "{not json"), .badRequest, "BAD_REQUEST")
        }
    }
}

extension JSONValue {
    /// The elements, for an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text, for a string.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
