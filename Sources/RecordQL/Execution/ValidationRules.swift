import GraphQL

/// The validation rules a document is checked with: GraphQLSwift's specified rules, plus the
/// rule that records argument definitions (``ArgumentCatalog``).
///
/// A document without any `$` uses no variable, so `NoUndefinedVariablesRule` cannot report
/// anything for it; that rule walks the whole document again for each operation (about a
/// seventh of the time of validating a small query), so it is left out then.
enum ValidationRules {
    /// GraphQLSwift 4.3.0's specified rules without `NoUndefinedVariablesRule`, or all of them
    /// if the list is not the one this was written against (GraphQLSwift keeps the rule
    /// functions themselves internal, so the list is the only handle on them).
    private static let withoutUndefinedVariables: [@Sendable (ValidationContext) -> Visitor] = {
        let noUndefinedVariables = 14
        guard specifiedRules.count == 24 else { return specifiedRules }
        var rules = specifiedRules
        rules.remove(at: noUndefinedVariables)
        return rules
    }()

    /// The rules for `text`, recording argument definitions into `catalog`.
    static func rules(for text: String, catalog: ArgumentCatalog) -> [@Sendable (ValidationContext) -> Visitor] {
        (text.utf8.contains(UInt8(ascii: "$")) ? specifiedRules : withoutUndefinedVariables) + [catalog.rule]
    }
}
