import GraphQL

/// What the service must know of a document before running it: whether it parses, and the kind
/// of the operation it would run (a mutation may not come over GET, and needs a writer).
enum GraphQLOperationLookup {
    enum Outcome: Equatable {
        case operation(OperationType)
        /// The document does not parse (400).
        case unparsable(String)
        /// No operation fits `operationName` (422).
        case unknownOperation(String)
    }

    static func find(in text: String, operationName: String?) -> Outcome {
        let document: Document
        do {
            document = try parse(source: Source(body: text, name: "request"))
        } catch {
            return .unparsable("\(error)")
        }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        if let operationName {
            guard let operation = operations.first(where: { $0.name?.value == operationName }) else {
                return .unknownOperation("the document has no operation named '\(operationName)'")
            }
            return .operation(operation.operation)
        }
        switch operations.count {
        case 1: return .operation(operations[0].operation)
        case 0: return .unknownOperation("the document has no operation to run")
        default: return .unknownOperation("the document has several operations; name the one to run in 'operationName'")
        }
    }
}
