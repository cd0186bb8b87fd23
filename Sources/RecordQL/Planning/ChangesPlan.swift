import GraphQL
import RecordKit

/// The plan of the root field `changes(since:, limit:, recordTypes:)`: the page of the change
/// feed to read and the members of its `ChangesPage` object.
struct ChangesPlan: Sendable {
    /// One member of the `ChangesPage` object.
    enum PageMember: Sendable {
        case changes(key: String, [ChangeMember])
        case syncToken(key: String)
        case moreComing(key: String)
        case constant(key: String, json: String)
    }

    /// One member of each `Change` object.
    enum ChangeMember: Sendable {
        case recordName(key: String)
        case recordType(key: String)
        case deleted(key: String)
        /// The record's JSON, built by the request's projection of its type.
        case record(key: String)
        case constant(key: String, json: String)
    }

    var request: ChangeFeedRequest
    var members: [PageMember]

    /// The plan of `field`; `maximum` caps the page size (``ResponseLimits``).
    init(_ field: FieldCollector.CollectedField, request prepared: PreparedRequest, collector: FieldCollector, maximum: Int?) throws(GraphQLFailure) {
        let context = prepared.context
        let path: [GraphQLResponseError.PathElement] = [.key(field.key)]
        let rootType = context.graphQLSchema.queryType?.name ?? GraphQLNames.queryType
        let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: prepared.variables)
        let token = try QueryPlan.translate(field, path: path) { () throws(RecordError) in
            try arguments.string(GraphQLNames.sinceArgument).map { text throws(RecordError) in try ChangeToken(text: text) }
        }
        // The query language reads the default zone's feed; a custom zone's token names
        // positions of another log.
        if let token, token.zone != 0 {
            throw GraphQLFailure(
                .invalidArguments,
                "the token passed as since belongs to a custom zone's change feed; pass the syncToken of an earlier changes page, or none to start over",
                at: [field.node], path: path, stage: .execution)
        }
        let limit = arguments.int(GraphQLNames.limitArgument) ?? GraphQLNames.defaultChangesLimit
        guard limit >= 1 else {
            throw GraphQLFailure(.invalidArguments, "changes needs a limit of at least 1, not \(limit)", at: [field.node], path: path)
        }
        var recordTypes: Set<String>?
        if let names = arguments.strings(GraphQLNames.recordTypesArgument) {
            for name in names {
                _ = try QueryPlan.recordType(name, context: context, field: field)
            }
            recordTypes = Set(names)
        }
        var projections: [String: Projection] = [:]
        var selectsRecord = false
        var members: [PageMember] = []
        for member in try collector.collect(field.selectionSets, on: GraphQLNames.changesPageType) {
            switch member.name {
            case GraphQLNames.pageChangesField:
                var changeMembers: [ChangeMember] = []
                for change in try collector.collect(member.selectionSets, on: GraphQLNames.changeType) {
                    switch change.name {
                    case GraphQLNames.changeRecordNameField: changeMembers.append(.recordName(key: change.key))
                    case GraphQLNames.changeRecordTypeField: changeMembers.append(.recordType(key: change.key))
                    case GraphQLNames.changeDeletedField: changeMembers.append(.deleted(key: change.key))
                    case "__typename": changeMembers.append(.constant(key: change.key, json: JSONWriter.string(GraphQLNames.changeType)))
                    case GraphQLNames.changeRecordField:
                        guard !selectsRecord else {
                            throw GraphQLFailure(
                                .invalidArguments, "changes selects the record of a change once; merge the selections of record into one",
                                at: [change.node], path: path)
                        }
                        selectsRecord = true
                        let builder = ProjectionBuilder(collector: collector)
                        for type in context.storedRecordTypes where recordTypes?.contains(type.name) ?? true {
                            let (recordType, names) = try QueryPlan.recordType(type.name, context: context, field: change)
                            let recordPath = path + [.key(member.key), .key(change.key)]
                            projections[type.name] = ResponseLimits.capped(
                                try builder.projection(change.selectionSets, of: recordType, names: names, path: recordPath), maximum: maximum)
                        }
                        changeMembers.append(.record(key: change.key))
                    default:
                        throw GraphQLFailure(.schemaViolation, "\(GraphQLNames.changeType) has no field '\(change.name)'", at: [change.node])
                    }
                }
                members.append(.changes(key: member.key, changeMembers))
            case GraphQLNames.syncTokenField: members.append(.syncToken(key: member.key))
            case GraphQLNames.moreComingField: members.append(.moreComing(key: member.key))
            case "__typename": members.append(.constant(key: member.key, json: JSONWriter.string(GraphQLNames.changesPageType)))
            default:
                throw GraphQLFailure(.schemaViolation, "\(GraphQLNames.changesPageType) has no field '\(member.name)'", at: [member.node])
            }
        }
        self.request = ChangeFeedRequest(
            after: token, limit: maximum.map { min(limit, $0) } ?? limit, recordTypes: recordTypes, projections: projections)
        self.members = members
    }

    /// The `ChangesPage` object of `page`, as JSON text.
    func json(_ page: ChangePage) -> String {
        let parts = members.map { member -> String in
            switch member {
            case .changes(let key, let changeMembers):
                let changes = page.entries.map { entry in
                    "{" + changeMembers.map { Self.json(of: $0, entry: entry) }.joined(separator: ",") + "}"
                }
                return JSONWriter.string(key) + ":[" + changes.joined(separator: ",") + "]"
            case .syncToken(let key): return JSONWriter.string(key) + ":" + JSONWriter.string(page.next.text)
            case .moreComing(let key): return JSONWriter.string(key) + ":" + (page.moreComing ? "true" : "false")
            case .constant(let key, let json): return JSONWriter.string(key) + ":" + json
            }
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    private static func json(of member: ChangeMember, entry: ChangePage.Entry) -> String {
        switch member {
        case .recordName(let key): return JSONWriter.string(key) + ":" + JSONWriter.string(entry.recordName)
        case .recordType(let key): return JSONWriter.string(key) + ":" + JSONWriter.string(entry.recordType)
        case .constant(let key, let json): return JSONWriter.string(key) + ":" + json
        case .deleted(let key):
            if case .deleted = entry { return JSONWriter.string(key) + ":true" }
            return JSONWriter.string(key) + ":false"
        case .record(let key):
            guard case .saved(_, let json?) = entry else { return JSONWriter.string(key) + ":null" }
            return JSONWriter.string(key) + ":" + json
        }
    }
}
