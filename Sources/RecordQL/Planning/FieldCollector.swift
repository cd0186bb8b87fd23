import GraphQL
import RecordKit

/// The fields one response object holds: GraphQL's CollectFields over selection sets, with
/// named and inline fragments whose type condition matches, and `@include`/`@skip` honoured.
struct FieldCollector {
    /// The fields selected under one response key, in document order, merged.
    struct CollectedField: Sendable {
        let key: String
        /// Every field node selected under `key` (they share name and arguments).
        var nodes: [Field]

        var name: String { nodes[0].name.value }
        var node: Field { nodes[0] }
        var arguments: [Argument] { nodes[0].arguments }
        /// The selection sets of all the nodes, to collect together.
        var selectionSets: [SelectionSet] { nodes.compactMap(\.selectionSet) }
    }

    let request: PreparedRequest

    /// The fields of `selectionSets` for an object of type `typeName`, by response key in
    /// first-seen order.
    func collect(_ selectionSets: [SelectionSet], on typeName: String) throws(GraphQLFailure) -> [CollectedField] {
        var fields: [CollectedField] = []
        var index: [String: Int] = [:]
        var visited: Set<String> = []
        for selectionSet in selectionSets {
            try collect(selectionSet, on: typeName, into: &fields, index: &index, visited: &visited)
        }
        return fields
    }

    private func collect(
        _ selectionSet: SelectionSet, on typeName: String,
        into fields: inout [CollectedField], index: inout [String: Int], visited: inout Set<String>
    ) throws(GraphQLFailure) {
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                guard try isIncluded(field.directives) else { continue }
                let key = field.alias?.value ?? field.name.value
                if let position = index[key] {
                    let first = fields[position].node
                    guard first.name.value == field.name.value, first.arguments == field.arguments else {
                        throw GraphQLFailure.invalidDocument(
                            "'\(key)' names two different fields (\(first.name.value) and \(field.name.value), or other arguments); give one of them another alias",
                            at: [first, field]
                        )
                    }
                    fields[position].nodes.append(field)
                } else {
                    index[key] = fields.count
                    fields.append(CollectedField(key: key, nodes: [field]))
                }
            case let fragment as InlineFragment:
                guard try isIncluded(fragment.directives),
                    fragment.typeCondition.map({ applies($0.name.value, to: typeName) }) ?? true
                else { continue }
                try collect(fragment.selectionSet, on: typeName, into: &fields, index: &index, visited: &visited)
            case let spread as FragmentSpread:
                let name = spread.name.value
                guard try isIncluded(spread.directives), !visited.contains(name) else { continue }
                visited.insert(name)
                guard let fragment = request.fragments[name] else {
                    throw GraphQLFailure.invalidDocument("there is no fragment named '\(name)'", at: [spread])
                }
                guard applies(fragment.typeCondition.name.value, to: typeName) else { continue }
                try collect(fragment.selectionSet, on: typeName, into: &fields, index: &index, visited: &visited)
            default:
                continue
            }
        }
    }

    /// Whether a fragment on `condition` applies to an object of type `typeName`: the same
    /// type, or an interface or union it belongs to.
    func applies(_ condition: String, to typeName: String) -> Bool {
        if condition == typeName { return true }
        let schema = request.context.graphQLSchema
        switch schema.getType(name: condition) {
        case let interface as GraphQLInterfaceType:
            return schema.getImplementations(interfaceType: interface).objects.contains { $0.name == typeName }
        case let union as GraphQLUnionType:
            return ((try? union.types()) ?? []).contains { $0.name == typeName }
        default:
            return false
        }
    }

    /// Whether `@skip(if:)` and `@include(if:)` keep the selection.
    private func isIncluded(_ directives: [Directive]) throws(GraphQLFailure) -> Bool {
        for directive in directives where directive.name.value == "skip" || directive.name.value == "include" {
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            let value = try InputCoercion(variables: request.variables).coerce(argument.value, to: GraphQLBoolean)
            guard case .bool(let condition) = value else {
                throw GraphQLFailure(.invalidArguments, "@\(directive.name.value)(if:) needs a Boolean", at: [argument])
            }
            if condition == (directive.name.value == "skip") { return false }
        }
        return true
    }
}
