import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

/// A document is validated only by the GraphQLSwift rules that can report anything on it, and
/// that finds exactly the errors all the specified rules find.
@Suite("Validation rules chosen per document")
struct ValidationRuleTests {
    /// For each rule left out of some documents: a document that breaks it, and what it says.
    static let breaking: [(rule: SpecifiedRule, document: String, message: String)] = [
        (.executableDefinitions, "{ Lists { name } } type T { a: Int }", #"The "T" definition is not executable."#),
        (.uniqueOperationNames, "query A { Lists { name } } query A { Items { name } }", #"There can be only one operation named "A"."#),
        (.loneAnonymousOperation, "{ Lists { name } } query B { Items { name } }", "This anonymous operation must be the only defined operation."),
        (.knownTypeNames, "query($n: Nope) { Lists { name } }", #"Unknown type "Nope"."#),
        (.fragmentsOnCompositeTypes, "{ Lists { ... on String { name } } }", #"Fragment cannot condition on non composite type "String"."#),
        (.variablesAreInputTypes, "query($l: Lists) { Lists { name } }", #"Variable "$l" cannot be non-input type "Lists"."#),
        (.uniqueFragmentNames, "{ Lists { ...F } } fragment F on Lists { name } fragment F on Lists { name }", #"There can be only one fragment named "F"."#),
        (.knownFragmentNames, "{ Lists { ...G } }", #"Unknown fragment "G"."#),
        (.noUnusedFragments, "{ Lists { name } } fragment F on Lists { name }", #"Fragment "F" is never used."#),
        (
            .possibleFragmentSpreads, "{ Lists { ... on Items { name } } }",
            #"Fragment cannot be spread here as objects of type "Lists" can never be of type "Items"."#
        ),
        (.noFragmentCycles, "{ Lists { ...F } } fragment F on Lists { ...F }", #"Cannot spread fragment "F" within itself."#),
        (.uniqueVariableNames, "query($n: Int, $n: Int) { Lists(limit: $n) { name } }", #"There can be only one variable named "$n"."#),
        (.noUndefinedVariables, "{ Lists(limit: $n) { name } }", #"Variable "$n" is not defined."#),
        (.noUnusedVariables, "query($n: Int) { Lists { name } }", #"Variable "$n" is never used."#),
        (.knownDirectives, "{ Lists @nope { name } }", #"Unknown directive "@nope"."#),
        (
            .uniqueDirectivesPerLocation, "{ Lists @include(if: true) @include(if: true) { name } }",
            #"The directive "@include" can only be used once at this location."#
        ),
        (
            .variablesInAllowedPosition, "query($n: String) { Lists(limit: $n) { name } }",
            #"Variable "$n" of type "String" used in position expecting type "Int"."#
        ),
    ]

    /// Documents valid and not, with every kind of construct.
    static let documents: [String] =
        breaking.map(\.document) + [
            "{ Items(where: {list: {eq: \"L1\"}}, sort: [{name: ASC}], limit: 50) { recordName name list { recordName } } }",
            "{ a: Lists { name } b: Lists { name } }",
            "{ Lists { title } Items { size } }",
            "{ Lists(first: 2) { name } }",
            "{ Lists(limit: \"two\") { name } }",
            "{ Lists(limit: 1, limit: 2) { name } }",
            "{ Lists(sort: [{name: UP}]) { name } }",
            "{ Items(where: {title: {eq: \"x\"}, list: {eq: \"L\", eq: \"M\"}}) { name } }",
            "{ Lists { name { x } } }",
            "{ Lists }",
            "{ Lists(predicate: \"name == '$x' OR name == '...'\") { name } }",
            "mutation { createLists(fields: {name: 12}) { name } }",
            "mutation { updateLists(fields: {name: \"x\"}) { name } }",
            "mutation @transaction(id: \"t1\") { deleteLists(recordName: \"L1\") { deleted } }",
            "mutation @transaction { deleteLists(recordName: \"L1\") { deleted } }",
            "query($yes: Boolean!) { Items { name @include(if: $yes) list @skip(if: $yes) { name } } }",
            "query Q($n: Int = 2, $w: ItemsFilter) { Items(limit: $n, where: $w) { ...I } } fragment I on Items { name list { ... on Lists { name } } }",
            "query($n: Int) { Lists(limit: $n) { ...F } } fragment F on Lists { name ...G } fragment G on Lists { ... @include(if: $m) { name } }",
            "{ __schema { queryType { name } } __type(name: \"Lists\") { name } }",
            "{ Lists { __typename recordName ... { name } } }",
            "query A { Lists { name } } query B { Items { name } } fragment U on Items { name }",
            "scalar Extra { Lists { name } }",
        ]

    static func context() throws -> SchemaContext {
        try SchemaContext(schema: try Schema.shopping, generation: 1)
    }

    @Test func specifiedRulesAreTheListTheSelectionDescribes() {
        #expect(specifiedRules.count == SpecifiedRule.allCases.count)
    }

    @Test(arguments: breaking.map(\.rule))
    func eachRuleLeftOutOfSomeDocumentsIsTheOneNamed(rule: SpecifiedRule) throws {
        let entry = try #require(Self.breaking.first { $0.rule == rule })
        let document = try parse(source: Source(body: entry.document))
        let alone = validate(schema: try Self.context().graphQLSchema, ast: document, rules: [specifiedRules[rule.rawValue]])
        #expect(alone.map(\.message).contains(entry.message), "\(alone.map(\.message))")
        #expect(rule.applies(to: DocumentFeatures(text: entry.document, document: document)), "the rule is kept for a document that breaks it")
    }

    @Test(arguments: documents)
    func theChosenRulesFindWhatAllTheSpecifiedRulesFind(text: String) throws {
        let context = try Self.context()
        let document = try parse(source: Source(body: text))
        func errors(_ rules: [@Sendable (ValidationContext) -> Visitor]) -> [String] {
            validate(schema: context.graphQLSchema, ast: document, rules: rules).map { error in
                error.message + " at " + error.locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")
            }
        }
        let chosen = ValidationRules.rules(for: text, document: document, catalog: context.arguments)
        #expect(errors(chosen) == errors(specifiedRules + [context.arguments.rule]))
    }

    @Test func aPlainQueryIsValidatedByTheFieldAndArgumentRulesAlone() throws {
        let text = "{ Items(where: {list: {eq: \"L1\"}}, sort: [{name: ASC}], limit: 50) { recordName name list { recordName } } }"
        let features = DocumentFeatures(text: text, document: try parse(source: Source(body: text)))
        #expect(features.isEmpty)
        #expect(
            SpecifiedRule.allCases.filter { $0.applies(to: features) } == [
                .scalarLeafs, .fieldsOnCorrectType, .knownArgumentNames, .uniqueArgumentNames, .valuesOfCorrectType, .providedRequiredArguments,
                .uniqueInputFieldNames,
            ])
    }

    @Test func featuresAreReadConservatively() throws {
        func features(_ text: String) throws -> DocumentFeatures {
            DocumentFeatures(text: text, document: try parse(source: Source(body: text)))
        }
        #expect(try features(#"{ Lists(predicate: "name == '$x'") { name } }"#) == .variables, "a $ in a string counts")
        #expect(try features("{ Lists { ... on Lists { name } } }") == .fragments)
        #expect(try features("{ Lists { name } } fragment F on Lists { name }") == .fragments, "a fragment never spread counts")
        #expect(try features(#"{ Lists(predicate: "name == '..'") { name } }"#).isEmpty, "two periods are not a spread")
        #expect(try features("query A { Lists { name } } query B { Lists { name } }") == .severalOperations)
        #expect(try features("{ Lists @include(if: true) { name } }") == .directives)
        #expect(try features("type T { a: Int }") == .typeSystemDefinitions)
    }
}
