import GraphQL

/// A document's text with its literal values taken out: the kinds and names of its tokens, with
/// every string, integer and float literal reduced to its kind. Documents that differ only in
/// those literals — batches of `createItems` fields carrying new values each time — have one
/// shape, and share its validation (``DocumentCache``), as Hasura normalizes literals before
/// caching plans.
///
/// Sharing is sound because validation depends on a literal only through its kind and its
/// position (the field, argument and input type it stands in), which the shape keeps, and
/// through the value itself, which planning checks again for every document: each literal is
/// coerced by its type's own `parseLiteral` (``InputCoercion``), so a value its type refuses
/// fails with the literal's own location. Booleans, `null` and enum values are kept in the
/// shape: they decide which fields are included and which values are missing. Whitespace and
/// comments are not part of it.
struct DocumentShape: Hashable, Sendable {
    /// The token stream, written out: punctuators, names (ASCII, as GraphQL's grammar has
    /// them), and a marker per literal kind.
    let text: String
    /// How many literals were taken out.
    let literalCount: Int

    /// The shape of `document`, from the tokens GraphQLSwift's lexer linked while parsing it;
    /// `nil` when the document carries no token list.
    init?(of document: Document) {
        guard var token = document.loc?.startToken else { return nil }
        var text = ""
        var literals = 0
        while token.kind != .eof {
            switch token.kind {
            case .string, .blockstring, .int, .float:
                // Control characters never stand outside a string literal in a valid document,
                // so a marker cannot be confused with a token that was written.
                text += Self.marker(for: token.kind)
                literals += 1
            case .name:
                text += " " + (token.value ?? "")
            case .comment, .sof:
                break
            default:
                text += token.kind.rawValue
            }
            guard let next = token.next else { return nil }
            token = next
        }
        self.text = text
        literalCount = literals
    }

    private static func marker(for kind: Token.Kind) -> String {
        switch kind {
        case .int: "\u{1}I"
        case .float: "\u{1}F"
        default: "\u{1}S"
        }
    }
}
