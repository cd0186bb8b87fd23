/// One complete unit of input, as the line assembler produces it from script or prompt lines.
struct ScriptEntry: Equatable {
    enum Kind: Equatable {
        /// A command, split into words.
        case command([String])
        /// A GraphQL query or mutation.
        case graphQL(String)
        /// `explain` followed by a GraphQL document.
        case explainGraphQL(String)
        /// `watch` followed by a GraphQL document (a query or a subscription).
        case watchGraphQL(String)
    }

    var kind: Kind
    /// The line it starts on, 1-based.
    var line: Int
}
