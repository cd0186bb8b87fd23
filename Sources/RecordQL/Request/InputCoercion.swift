import GraphQL
import OrderedCollections
import RecordKit

/// Coerces input values to the input types of the generated schema, as GraphQL's
/// CoerceArgumentValues and CoerceVariableValues do (GraphQLSwift keeps its own internal):
/// literals of the document, with the request's variables, and JSON values of variables.
///
/// Scalars are parsed by their own `parseLiteral`/`parseValue` (so `Int64` rejects what does not
/// fit), enums become their internal values, input objects keep the order their fields are written
/// in (a `sort` object's keys are significant) followed by defaults. Failures are
/// `invalidArguments`, located at the literal or variable definition.
struct InputCoercion {
    /// The request's variables, already coerced to their declared types.
    var variables: [String: Map]

    // MARK: Literals

    /// `literal` as a value of `type`; `.undefined` for a variable the request did not provide.
    func coerce(_ literal: any GraphQL.Value, to type: any GraphQLInputType) throws(GraphQLFailure) -> Map {
        if let variable = literal as? Variable {
            let value = variables[variable.name.value] ?? .undefined
            if type is GraphQLNonNull, value == .null || value == .undefined {
                throw Self.failure("variable $\(variable.name.value) is null, but \(type) cannot be null", at: literal)
            }
            return value
        }
        if let nonNull = type as? GraphQLNonNull {
            guard let inner = nonNull.ofType as? any GraphQLInputType, !(literal is NullValue) else {
                throw Self.failure("expected a value of type \(type), found null", at: literal)
            }
            return try coerce(literal, to: inner)
        }
        if literal is NullValue { return .null }
        switch type {
        case let list as GraphQLList:
            guard let element = list.ofType as? any GraphQLInputType else { break }
            guard let items = literal as? ListValue else { return .array([try coerce(literal, to: element)]) }
            var values: [Map] = []
            for item in items.values {
                let value = try coerce(item, to: element)
                values.append(value == .undefined ? .null : value)
            }
            return .array(values)
        case let object as GraphQLInputObjectType:
            guard let literal = literal as? ObjectValue else { break }
            let given = literal.fields.map { (name: $0.name.value, value: $0.value as any GraphQL.Value, node: $0 as (any Node)?) }
            return try Self.coerceObject(given, to: object, at: literal) { _, value, type throws(GraphQLFailure) in try coerce(value, to: type) }
        case let enumType as GraphQLEnumType:
            guard let name = (literal as? EnumValue)?.value, let value = enumType.nameLookup[name] else { break }
            return value.value
        case let scalar as GraphQLScalarType:
            let value: Map
            do {
                value = try scalar.parseLiteral(valueAST: literal)
            } catch {
                throw Self.failure(Self.reason(error), at: literal)
            }
            guard value != .undefined else { break }
            return value
        default:
            break
        }
        throw Self.failure("expected a value of type \(type), found \(print(ast: literal))", at: literal)
    }

    // MARK: JSON values

    /// The JSON `value` of variable `name` as a value of `type`.
    static func coerce(_ value: Map, to type: any GraphQLInputType, variable name: String) throws(GraphQLFailure) -> Map {
        try coerce(value, to: type, variable: name) { "" }
    }

    /// `value` as a value of `type`, `path` writing where in variable `name` it is for a message
    /// (only when there is one to give: a request that coerces builds no path).
    private static func coerce(
        _ value: Map, to type: any GraphQLInputType, variable name: String, path: () -> String
    ) throws(GraphQLFailure) -> Map {
        func place() -> String {
            let path = path()
            return path.isEmpty ? "variable $\(name)" : "variable $\(name) at \(path)"
        }
        if let nonNull = type as? GraphQLNonNull {
            guard let inner = nonNull.ofType as? any GraphQLInputType, value != .null, value != .undefined else {
                throw GraphQLFailure(.invalidArguments, "\(place()) must be a non-null \(type)")
            }
            return try coerce(value, to: inner, variable: name, path: path)
        }
        if value == .null || value == .undefined { return value }
        switch type {
        case let list as GraphQLList:
            guard let element = list.ofType as? any GraphQLInputType else { break }
            guard case .array(let items) = value else { return .array([try coerce(value, to: element, variable: name, path: path)]) }
            var values: [Map] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                values.append(try coerce(item, to: element, variable: name) { path() + "[\(index)]" })
            }
            return .array(values)
        case let object as GraphQLInputObjectType:
            guard case .dictionary(let members) = value else { break }
            let given = members.map { (name: $0.key, value: $0.value, node: nil as (any Node)?) }
            return try coerceObject(given, to: object, at: nil) { key, member, type throws(GraphQLFailure) in
                try coerce(member, to: type, variable: name) {
                    let path = path()
                    return path.isEmpty ? key : path + "." + key
                }
            }
        case let enumType as GraphQLEnumType:
            guard case .string(let text) = value, let enumValue = enumType.nameLookup[text] else { break }
            return enumValue.value
        case let scalar as GraphQLScalarType:
            let parsed: Map
            do {
                parsed = try scalar.parseValue(value: value)
            } catch {
                throw GraphQLFailure(.invalidArguments, "\(place()): \(reason(error))")
            }
            guard parsed != .undefined else { break }
            return parsed
        default:
            break
        }
        throw GraphQLFailure(.invalidArguments, "\(place()) must be a \(type), not \(JSONWriter.json(value))")
    }

    // MARK: Input objects

    /// The members `given` as an object of `type`: each coerced by `coerceMember` (given its
    /// name, value and type), unknown names refused, defaults added, required members checked.
    private static func coerceObject<Input>(
        _ given: [(name: String, value: Input, node: (any Node)?)],
        to type: GraphQLInputObjectType,
        at node: (any Node)?,
        _ coerceMember: (String, Input, any GraphQLInputType) throws(GraphQLFailure) -> Map
    ) throws(GraphQLFailure) -> Map {
        let fields: InputObjectFieldMap
        do {
            fields = try type.fields()
        } catch {
            throw Self.failure("the input type \(type.name) cannot be read: \(error)", at: node)
        }
        var members: [(String, Map)] = []
        for member in given {
            guard let field = fields[member.name] else {
                throw Self.failure("\(type.name) has no field '\(member.name)'", at: member.node ?? node)
            }
            let value = try coerceMember(member.name, member.value, field.type)
            if value != .undefined { members.append((member.name, value)) }
        }
        for (name, field) in fields where !members.contains(where: { $0.0 == name }) {
            if let defaultValue = field.defaultValue {
                members.append((name, defaultValue))
            } else if field.type is GraphQLNonNull {
                throw Self.failure("\(type.name).\(name) of type \(field.type) is required but was not given", at: node)
            }
        }
        return .dictionary(.init(members, uniquingKeysWith: { first, _ in first }))
    }

    private static func failure(_ message: String, at node: (any Node)?) -> GraphQLFailure {
        GraphQLFailure(.invalidArguments, message, at: node.map { [$0] } ?? [])
    }

    /// The message of a scalar's parse error.
    private static func reason(_ error: any Error) -> String {
        (error as? GraphQLError)?.message ?? String(describing: error)
    }
}
