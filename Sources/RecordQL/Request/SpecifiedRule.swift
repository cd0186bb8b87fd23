import GraphQL

/// GraphQLSwift 4.3.0's specified validation rules, in the order of its `specifiedRules`, with
/// what a document must hold for each to have anything to report.
///
/// GraphQLSwift keeps the rule functions themselves internal, so their position in
/// `specifiedRules` is the only handle on them; the package pins GraphQLSwift to 4.3.0, and
/// ``rules(applyingTo:)`` falls back to the whole list if it is not the one described here.
enum SpecifiedRule: Int, CaseIterable {
    case executableDefinitions
    case uniqueOperationNames
    case loneAnonymousOperation
    case knownTypeNames
    case fragmentsOnCompositeTypes
    case variablesAreInputTypes
    case scalarLeafs
    case fieldsOnCorrectType
    case uniqueFragmentNames
    case knownFragmentNames
    case noUnusedFragments
    case possibleFragmentSpreads
    case noFragmentCycles
    case uniqueVariableNames
    case noUndefinedVariables
    case noUnusedVariables
    case knownDirectives
    case uniqueDirectivesPerLocation
    case knownArgumentNames
    case uniqueArgumentNames
    case valuesOfCorrectType
    case providedRequiredArguments
    case variablesInAllowedPosition
    case uniqueInputFieldNames

    /// GraphQLSwift's rules that may report anything on a document with `features`, in their
    /// order (so errors are reported in the same order); all of them if `specifiedRules` is not
    /// the list described here.
    static func rules(applyingTo features: DocumentFeatures) -> [@Sendable (ValidationContext) -> Visitor] {
        guard specifiedRules.count == allCases.count else { return specifiedRules }
        return allCases.filter { $0.applies(to: features) }.map { specifiedRules[$0.rawValue] }
    }

    /// The features of which a document must hold at least one for the rule to report
    /// anything; empty for a rule that applies to every document (fields and arguments).
    var reportsOn: DocumentFeatures {
        switch self {
        case .executableDefinitions:
            [.typeSystemDefinitions]
        case .uniqueOperationNames, .loneAnonymousOperation:
            [.severalOperations]
        case .knownTypeNames:
            // Type names appear in variable definitions, type conditions and type definitions.
            [.variables, .fragments, .typeSystemDefinitions]
        case .fragmentsOnCompositeTypes, .uniqueFragmentNames, .knownFragmentNames, .noUnusedFragments, .possibleFragmentSpreads, .noFragmentCycles:
            [.fragments]
        case .variablesAreInputTypes, .uniqueVariableNames, .noUndefinedVariables, .noUnusedVariables, .variablesInAllowedPosition:
            [.variables]
        case .knownDirectives, .uniqueDirectivesPerLocation:
            [.directives]
        case .scalarLeafs, .fieldsOnCorrectType, .knownArgumentNames, .uniqueArgumentNames, .valuesOfCorrectType, .providedRequiredArguments,
            .uniqueInputFieldNames:
            []
        }
    }

    /// Whether the rule may report anything on a document with `features`.
    func applies(to features: DocumentFeatures) -> Bool {
        reportsOn.isEmpty || !reportsOn.isDisjoint(with: features)
    }
}
