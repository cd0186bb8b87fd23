import Foundation
public import Hummingbird
import Logging
import NIOFoundationEssentialsCompat
import RecordKit

/// CloudKit Web Services for one database, under `/database/1/{container}/{environment}/{database}/`:
/// `records/query`, `records/modify`, `records/lookup`, `records/changes`, `zones/list`,
/// `zones/lookup`, `zones/modify`, `zones/changes`, `users/current`, `users/discover` and
/// `assets/upload` with the download URLs it hands out, and the upload URLs
/// (``addUploadRoute(to:)``, whose bodies may be as large as an asset). Bodies
/// are CloudKit's JSON as its clients send it; responses are `application/json`, errors
/// `{"uuid", "serverErrorCode", "reason"}` with CloudKit's statuses.
public struct CloudKitController: Sendable {
    let writes: IdempotentWrites
    let uploads: AssetUploads
    let users: UserStore
    let databases: DatabaseRegistry

    init(writes: IdempotentWrites, uploads: AssetUploads, users: UserStore, databases: DatabaseRegistry) {
        self.writes = writes
        self.uploads = uploads
        self.users = users
        self.databases = databases
    }

    /// Adds the routes to `group`, a group at the database path whose middleware resolved the
    /// credential and the database.
    public func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.post("records/query", use: query)
        group.post("records/modify", use: modify)
        group.post("records/lookup", use: lookup)
        group.post("records/changes", use: recordChanges)
        group.get("zones/list", use: listZones)
        group.post("zones/list", use: listZones)
        group.post("zones/lookup", use: lookupZones)
        group.post("zones/modify", use: modifyZones)
        group.post("zones/changes", use: zoneChanges)
        group.get("users/current", use: currentUser)
        group.get("users/discover", use: discoverUsers)
        group.post("users/discover", use: discoverUsers)
        group.post("assets/upload", use: requestUploads)
        group.get("assets/download/:checksum", use: download)
    }

    /// Adds the upload URLs `assets/upload` hands out to `group`, a group at the database path
    /// whose body limit is an asset's (the bytes stream to a file, never held in memory).
    public func addUploadRoute(to group: RouterGroup<ServiceRequestContext>) {
        group.post("assets/upload/:token", use: upload)
    }

    // MARK: Records

    @Sendable func lookup(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let access = try context.requireAccess()
        let database = try context.requireDatabase()
        let body = try await Self.body(of: request, context: context)
        let entries = try Self.array("records", of: body, example: #"[{"recordName": "L1"}]"#)
        guard entries.count <= CloudKitQueryRequest.maximumResults else {
            throw CloudKitError(.badRequest, "a lookup names at most \(CloudKitQueryRequest.maximumResults) records; this one names \(entries.count)")
        }
        let form = try CloudKitRecordForm(body)
        // Each entry may ask for fields of its own (the lookup record dictionary's desiredKeys).
        var entryForms: [(name: String, form: CloudKitRecordForm)] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let name)? = entry["recordName"] else {
                throw CloudKitError(.badRequest, "records[\(index)] needs a recordName")
            }
            entryForms.append((name, try form.narrowed(by: entry, at: "records[\(index)]")))
        }
        let requested = entryForms
        let assetURL = try Self.assetURL(request, context: context)
        let zone = try await CloudKitZone.resolve(body["zoneID"], in: database.database)
        let found = try await CloudKitStore(database: zone.database, access: access).read { transaction in
            let schema = transaction.schema
            let records = try transaction.fetch(recordNames: requested.map(\.name))
            let byName = Dictionary(records.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
            let authors = try transaction.authors(of: records.map(\.recordName))
            return requested.map { name, form -> JSONValue in
                guard let record = byName[name] else {
                    return CloudKitError(.notFound, "there is no record named \(name.debugDescription)", recordName: name).operationResult
                }
                return CloudKitRecord.encode(
                    record, type: schema.recordType(named: record.recordType), form: form, authors: authors.of(name),
                    zone: zone.zone.name, assetURL: assetURL)
            }
        }
        return Self.json(.object(["records": .array(CloudKitZone.stamped(found, zone: zone.zone.name))]))
    }

    @Sendable func modify(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requireWriter()
        let access = try context.requireAccess()
        let database = try context.requireDatabase()
        let key = try IdempotencyKey.of(request)
        let body = try await Self.body(of: request, context: context)
        let modify = try CloudKitModifyRequest(body)
        let zone = try await CloudKitZone.resolve(body["zoneID"], in: database.database)
        // The schema is the database's (every zone follows it); the records are the zone's.
        let store = CloudKitStore(database: database.database, access: access)
        let records = zone.database
        let zoneStore = CloudKitStore(database: records, access: access)
        let storedTypes = try await zoneStore.recordTypes(of: modify.untypedRecordNames)
        let schema = try await store.schema()
        let additions = try CloudKitSchemaGrowth.additions(for: modify.operations, storedTypes: storedTypes, schema: schema)
        if database.address.environment == .production, let refusal = CloudKitSchemaGrowth.refusal(additions) {
            throw refusal
        }
        let uploads = self.uploads
        let modification = try CloudKitModification(
            modify, schema: schema, additions: additions, storedTypes: storedTypes, zone: zone.zone.name,
            uploads: { uploads.content(receipt: $0) }, assetURL: try Self.assetURL(request, context: context)
        )
        // CloudKit answers a failed operation in its place, 200; atomic, with nothing applied.
        let answer: @Sendable ([JSONValue]) -> JSONValue = { .object(["records": .array(CloudKitZone.stamped($0, zone: zone.zone.name))]) }
        if let refusal = modification.refusal {
            return Self.json(answer(try await Self.typed(refusal, in: zoneStore)))
        }
        let request = ["records/modify", body.serialized]
        let apply: @Sendable (RecordTransaction) throws -> StoredResponse = { transaction in
            StoredResponse(status: .ok, contentType: Self.contentType, body: answer(try modification.apply(in: transaction)).serialized)
        }
        let response: Response
        do {
            if let key {
                // Stored with the writes, in the same transaction, as every API's writes are
                // (``IdempotentWrites``); a batch of CloudKit operations needs the transaction
                // itself (undoable steps, conditional deletes), so it runs as one closure.
                let storedID = TransactionScope(principal).storedID(key.text)
                response = try await writes.inFlight.whileRunning(storedID) {
                    let (stored, isReplay) = try await BlockingWork.run { () throws(RecordError) in
                        do {
                            return try records.write(transactionID: storedID, request: request, access: access, apply)
                        } catch {
                            throw error as? RecordError ?? RecordError(wrapping: error)
                        }
                    }
                    return stored.response(replayed: isReplay)
                }
            } else {
                response = try await records.write(access: access, apply).response(replayed: false)
            }
        } catch let error as RecordError where error.code == .transactionConflict {
            throw CloudKitError(.conflict, "the Idempotency-Key '\(key?.text ?? "")' was used for a different request; send a new key for a new request")
        } catch let error as RecordError {
            guard let results = modification.atomicResults(failingWith: error) else { throw modification.failure(error) }
            return Self.json(answer(try await Self.typed(results, in: zoneStore)))
        }
        if !additions.isEmpty, zone.zone.name != CloudKitZone.defaultZoneName {
            await Self.adoptSchema(of: zone, into: store, logger: context.logger)
        }
        // What a private database added just in time is its environment's at once (the next
        // request to it would share it too).
        if !additions.isEmpty, database.address.isPrivate {
            do {
                _ = try await databases.database(database.address)
            } catch {
                context.logger.warning("the private database's new fields did not reach its environment's schema: \(error.message)")
            }
        }
        return response
    }

    /// `results` of a batch that applied nothing with the recordType of each record they name
    /// without one (an atomic batch's deletions) when `store` has it, as every other result
    /// names its record's type.
    private static func typed(_ results: [JSONValue], in store: CloudKitStore) async throws(CloudKitError) -> [JSONValue] {
        let untyped = results.compactMap { result -> String? in
            guard result["recordType"] == nil, case .string(let name)? = result["recordName"] else { return nil }
            return name
        }
        let types = try await store.recordTypes(of: untyped)
        guard !types.isEmpty else { return results }
        return results.map { result in
            guard case .object(var members) = result, members["recordType"] == nil, case .string(let name)? = members["recordName"],
                let type = types[name]
            else { return result }
            members["recordType"] = .string(type)
            return .object(members)
        }
    }

    /// Brings into the database's schema what the writes of a custom zone, whose records are in a
    /// database of their own, added to that zone's schema. The writes have committed, so a
    /// failure here is logged, not answered: the zone's schema keeps what it added, and the next
    /// write that names it adds it to the database's again.
    private static func adoptSchema(of zone: ZoneDatabase, into store: CloudKitStore, logger: Logger) async {
        do {
            try await store.merge(try await CloudKitStore(database: zone.database, access: store.access).schema())
        } catch {
            logger.warning("zone \(zone.zone.name)'s new fields did not reach the database's schema: \(error.reason)")
        }
    }

    // MARK: Users

    @Sendable func currentUser(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try Self.requireSignedIn(context)
        _ = try context.requireDatabase()
        var user: [String: JSONValue] = ["userRecordName": .string(CloudKitUser.recordName(of: principal))]
        if case .user(let name) = principal.kind { user["nameComponents"] = .object(["givenName": .string(name)]) }
        return Self.json(.object(user))
    }

    /// `users/discover`: the users who allowed it (`shop user add --discoverable`), all of them
    /// (GET, or POST without `lookupInfos`) or those a POST's `lookupInfos` name by
    /// `userRecordName` (or `userName`), as `{"users": [{"userRecordName", "nameComponents"}]}`.
    @Sendable func discoverUsers(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try Self.requireSignedIn(context)
        _ = try context.requireDatabase()
        var wanted: Set<String>?
        if request.method == .post, case .array(let infos)? = try await Self.body(of: request, context: context)["lookupInfos"] {
            wanted = Set(
                infos.compactMap { info in
                    if case .string(let name)? = info["userRecordName"] { return name }
                    if case .string(let name)? = info["userName"] { return CloudKitUser.recordName(of: .user(name)) }
                    return nil
                })
        }
        let users = self.users
        let found = try await BlockingWork.run { () throws(RecordError) in try users.discoverable() }
        let answer = found.compactMap { name -> JSONValue? in
            let recordName = CloudKitUser.recordName(of: .user(name.text))
            guard wanted?.contains(recordName) ?? true else { return nil }
            return .object(["userRecordName": .string(recordName), "nameComponents": .object(["givenName": .string(name.text)])])
        }
        return Self.json(.object(["users": .array(answer)]))
    }

    /// The principal of a request that identifies someone: an API token alone identifies no
    /// one (421 AUTHENTICATION_REQUIRED, as CloudKit answers without a web auth token).
    static func requireSignedIn(_ context: ServiceRequestContext) throws(ServiceError) -> Principal {
        let principal = try context.requirePrincipal()
        guard principal.kind != .world else {
            throw ServiceError(
                .misdirectedRequest, code: .authenticationRequired, "an API token identifies no user; log in for a ckWebAuthToken (POST /auth/login)")
        }
        return principal
    }

    // MARK: Assets

    @Sendable func requestUploads(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requireWriter()
        let access = try context.requireAccess()
        let database = try context.requireDatabase()
        let body = try await Self.body(of: request, context: context)
        let requested = try Self.array("tokens", of: body, example: #"[{"recordType": "Items", "fieldName": "photo"}]"#)
        let schema = try await CloudKitStore(database: database.database, access: access).schema()
        var tokens: [JSONValue] = []
        for (index, entry) in requested.enumerated() {
            guard case .string(let recordType)? = entry["recordType"], case .string(let fieldName)? = entry["fieldName"] else {
                throw CloudKitError(.badRequest, "tokens[\(index)] needs a recordType and a fieldName")
            }
            if let field = schema.recordType(named: recordType)?.field(named: fieldName), field.type != .asset, field.type != .list(.asset) {
                throw CloudKitError(.badRequest, "tokens[\(index)]: \(recordType).\(fieldName) is \(field.type), not ASSET", recordType: recordType)
            }
            let recordName: String
            switch entry["recordName"] {
            case .string(let name)?: recordName = name
            default: recordName = Record.generatedName()
            }
            let token = uploads.issueToken(recordName: recordName, recordType: recordType, fieldName: fieldName)
            tokens.append(
                .object([
                    "recordName": .string(recordName), "fieldName": .string(fieldName),
                    "url": .string(try Self.databaseURL(request, context: context) + "assets/upload/" + token),
                ]))
        }
        return Self.json(.object(["tokens": .array(tokens)]))
    }

    @Sendable func upload(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requireWriter()
        _ = try context.requireDatabase()
        let token = try context.parameters.require("token")
        return Self.json(try await uploads.upload(request.body, token: token, limit: context.maxUploadSize, context: context).json)
    }

    @Sendable func download(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let access = try context.requireAccess()
        let database = try context.requireDatabase()
        let checksum = try context.parameters.require("checksum")
        let content = try await CloudKitStore(database: database.database, access: access).read { try $0.assetContent(sha256: checksum) }
        guard let content else {
            throw CloudKitError(.notFound, "there is no asset with checksum \(checksum)")
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: ByteBuffer(data: content)))
    }

    // MARK: Helpers

    static let contentType = "application/json"

    /// The request body as JSON; `BAD_REQUEST` when it is not.
    static func body(of request: Request, context: ServiceRequestContext) async throws -> JSONValue {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return try JSONValue.parse(Data(buffer: buffer))
    }

    /// The array member `key` of a request body; `BAD_REQUEST` showing `example` when it is missing.
    static func array(_ key: String, of body: JSONValue, example: String) throws(CloudKitError) -> [JSONValue] {
        guard case .array(let elements)? = body[key] else {
            throw CloudKitError(.badRequest, "the request needs a \(key) array such as \(example)")
        }
        return elements
    }

    static func json(_ value: JSONValue) -> Response {
        json(value.buffer.byteBuffer)
    }

    /// A `200 OK` response whose body is the JSON text `json`.
    static func json(_ json: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: json))
    }

    /// `http://HOST/database/1/{container}/{environment}/{database}/` of the request.
    ///
    /// - Throws: `BAD_REQUEST` when the `Host` header is not `HOST[:PORT]`: it goes into the URLs
    ///   an answer hands out, which a client then calls.
    static func databaseURL(_ request: Request, context: ServiceRequestContext) throws(ServiceError) -> String {
        let host = request.head.authority ?? "localhost"
        guard HostAuthority.isValid(host) else {
            throw ServiceError(.badRequest, code: .badRequest, "the Host header must be HOST or HOST:PORT, as the service's address is written")
        }
        let parameters = context.parameters
        return "http://\(host)/database/1/\(parameters.get("container") ?? "")/\(parameters.get("environment") ?? "")/\(parameters.get("database") ?? "")/"
    }

    /// The download URL of an asset, for responses to `request`.
    static func assetURL(_ request: Request, context: ServiceRequestContext) throws(ServiceError) -> @Sendable (Asset) -> String {
        let base = try databaseURL(request, context: context) + "assets/download/"
        return { base + $0.sha256 }
    }
}
