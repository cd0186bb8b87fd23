import GraphQL

/// The validation rules a document is checked with: those of GraphQLSwift's specified rules
/// that can report anything on it, plus the rule that records argument definitions
/// (``ArgumentCatalog``).
///
/// Each rule is a visitor that GraphQLSwift calls on every node of the document, and some walk
/// the document again on their own (the variable rules, with a fresh type info); most rules
/// only ever report on variables, fragments or directives (``SpecifiedRule/reportsOn``). A
/// document without those is validated by the seven rules about fields and arguments alone,
/// which finds the same errors in about half the time.
enum ValidationRules {
    /// The rules for `document`, parsed from `text`, recording argument definitions into `catalog`.
    static func rules(for text: String, document: Document, catalog: ArgumentCatalog) -> [@Sendable (ValidationContext) -> Visitor] {
        SpecifiedRule.rules(applyingTo: DocumentFeatures(text: text, document: document)) + [catalog.rule]
    }
}
