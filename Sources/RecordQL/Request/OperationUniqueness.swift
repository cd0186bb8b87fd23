import GraphQL
import RecordKit

/// GraphQL's rules that an anonymous operation is the only one in its document and that
/// operation names are unique, checked before GraphQLSwift validates the document.
///
/// GraphQLSwift 4.3's `OperationDefinition` hashes by identity but compares by content, so two
/// identical operations in one document (`{ a } { a }`) can make a dictionary in its validation
/// trap with "Duplicate keys of type 'OperationDefinition'" (found by `Scripts/fuzz graphql`).
/// Identical operations always break one of these two rules, so a document that breaks them is
/// refused here, with the messages GraphQL's own rules give, before GraphQLSwift sees it.
enum OperationUniqueness {
    /// The failure of `document` when it has an anonymous operation beside others, or two
    /// operations of one name; `nil` otherwise.
    static func failure(in document: Document) -> GraphQLFailure? {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        guard operations.count > 1 else { return nil }
        var errors: [GraphQLResponseError] = []
        var seen: Set<String> = []
        var reported: Set<String> = []
        for operation in operations {
            let location = operation.responseLocation.map { [$0] } ?? []
            guard let name = operation.name?.value else {
                errors.append(GraphQLResponseError(.invalidArguments, "This anonymous operation must be the only defined operation.", locations: location))
                continue
            }
            if !seen.insert(name).inserted, reported.insert(name).inserted {
                errors.append(GraphQLResponseError(.invalidArguments, "There can be only one operation named \"\(name)\".", locations: location))
            }
        }
        return errors.isEmpty ? nil : GraphQLFailure(errors, stage: .validation)
    }
}
