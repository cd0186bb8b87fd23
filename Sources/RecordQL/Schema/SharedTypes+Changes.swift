import GraphQL
import OrderedCollections

extension SharedTypes {
    /// `ChangesPage { changes: [Change!]!, syncToken: String!, moreComing: Boolean! }` with
    /// `Change { recordName: ID!, recordType: String!, deleted: Boolean!, record: Record }`.
    static func changesPage(record: GraphQLInterfaceType) throws -> GraphQLObjectType {
        let change = try GraphQLObjectType(
            name: GraphQLNames.changeType,
            description: "A record changed after the token: as it is now, or deleted.",
            fields: [
                GraphQLNames.changeRecordNameField: GraphQLField(type: GraphQLNonNull(GraphQLID)),
                GraphQLNames.changeRecordTypeField: GraphQLField(type: GraphQLNonNull(GraphQLString)),
                GraphQLNames.changeDeletedField: GraphQLField(type: GraphQLNonNull(GraphQLBoolean), description: "Whether the record no longer exists."),
                GraphQLNames.changeRecordField: GraphQLField(
                    type: record, description: "The record as it is now (select its fields with `... on T`); null when deleted."),
            ]
        )
        return try GraphQLObjectType(
            name: GraphQLNames.changesPageType,
            description: "One page of the change feed: apply the changes in order, then ask again with syncToken while moreComing.",
            fields: [
                GraphQLNames.pageChangesField: GraphQLField(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(change))),
                    description: "Each record changed after the token once, in the order of its last change."),
                GraphQLNames.syncTokenField: GraphQLField(
                    type: GraphQLNonNull(GraphQLString), description: "The token to ask the next page with (opaque)."),
                GraphQLNames.moreComingField: GraphQLField(
                    type: GraphQLNonNull(GraphQLBoolean), description: "Whether more changes follow syncToken already."),
            ]
        )
    }

    /// The arguments of the root field `changes`.
    static func changesArguments() -> GraphQLArgumentConfigMap {
        [
            GraphQLNames.sinceArgument: GraphQLArgument(
                type: GraphQLString, description: "The syncToken of the previous page; left out, every record that exists comes."),
            GraphQLNames.limitArgument: GraphQLArgument(
                type: GraphQLInt, description: "The most changes in the page.", defaultValue: .number(Number(GraphQLNames.defaultChangesLimit))),
            GraphQLNames.recordTypesArgument: GraphQLArgument(
                type: GraphQLList(GraphQLNonNull(GraphQLString)), description: "Only changes of these record types."),
        ]
    }
}
