import GraphQL

/// The kinds of GraphQL constructs a document may hold, as far as a scan of its text and its
/// top-level definitions can tell. Conservative: a feature is absent only when the document
/// certainly lacks it (a `$` inside a string still counts as a variable).
///
/// Most of GraphQLSwift's validation rules can only report on one kind of construct; a document
/// without any of them is validated without those rules (``ValidationRules``).
struct DocumentFeatures: OptionSet, Sendable {
    let rawValue: Int

    /// Variable definitions or uses: every one is spelled with a `$`.
    static let variables = DocumentFeatures(rawValue: 1 << 0)
    /// Directives (`@include`, `@transaction`…): every one is spelled with an `@`.
    static let directives = DocumentFeatures(rawValue: 1 << 1)
    /// Fragment definitions, fragment spreads or inline fragments (spreads and inline fragments
    /// are spelled with `...`).
    static let fragments = DocumentFeatures(rawValue: 1 << 2)
    /// More than one operation.
    static let severalOperations = DocumentFeatures(rawValue: 1 << 3)
    /// Definitions that are neither operations nor fragments (type system definitions).
    static let typeSystemDefinitions = DocumentFeatures(rawValue: 1 << 4)

    /// The features of `document`, parsed from `text`.
    init(text: String, document: Document) {
        var features: DocumentFeatures = []
        var periods = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "$"): features.insert(.variables)
            case UInt8(ascii: "@"): features.insert(.directives)
            case UInt8(ascii: "."):
                periods += 1
                if periods == 3 { features.insert(.fragments) }
                continue
            default: break
            }
            periods = 0
        }
        var operations = 0
        for definition in document.definitions {
            switch definition {
            case is OperationDefinition: operations += 1
            case is FragmentDefinition: features.insert(.fragments)
            default: features.insert(.typeSystemDefinitions)
            }
        }
        if operations > 1 { features.insert(.severalOperations) }
        self = features
    }

    init(rawValue: Int) {
        self.rawValue = rawValue
    }
}
