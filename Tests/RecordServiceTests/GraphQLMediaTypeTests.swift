import Testing

@testable import RecordService

@Suite("Negotiating the GraphQL response type")
struct GraphQLMediaTypeTests {
    @Test func eitherTypeSentExactlyIsChosen() {
        #expect(GraphQLMediaType.negotiate("application/graphql-response+json") == .chosen(.graphQLResponse))
        #expect(GraphQLMediaType.negotiate("application/json") == .chosen(.json))
    }

    @Test func headersWithParametersOrSeveralRangesAreStillParsed() {
        #expect(GraphQLMediaType.negotiate("application/json;q=0.5, application/graphql-response+json;q=0.9") == .chosen(.graphQLResponse))
        #expect(GraphQLMediaType.negotiate("application/json; charset=utf-8") == .chosen(.json))
        #expect(GraphQLMediaType.negotiate("application/json; charset=latin-1") == .notAcceptable)
        #expect(GraphQLMediaType.negotiate("APPLICATION/JSON") == .chosen(.json))
        #expect(GraphQLMediaType.negotiate("text/html") == .notAcceptable)
        #expect(GraphQLMediaType.negotiate(nil) == .chosen(.graphQLResponse))
    }

    @Test func onlyAPlainJSONContentTypeInUTF8IsAccepted() throws {
        try GraphQLController.checkContentType("application/json")
        try GraphQLController.checkContentType("Application/JSON; charset=UTF-8")
        #expect(throws: ServiceError.self) { try GraphQLController.checkContentType("application/json; charset=latin-1") }
        #expect(throws: ServiceError.self) { try GraphQLController.checkContentType("text/plain") }
        #expect(throws: ServiceError.self) { try GraphQLController.checkContentType(nil) }
    }
}
