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

    /// Whether only Ctrl-C ends it (a watch), so that stopping for Ctrl-C is not finishing.
    var runsUntilInterrupted: Bool {
        if case .watchGraphQL = kind { true } else { false }
    }
}
