/// Splits CKDB text into ``CKDBToken``s.
///
/// Words are runs of letters, digits and `_`; quoted names run from `"` to the next `"` on the
/// same line; punctuation is `( ) , ; < >`. Whitespace (a byte-order mark too) and comments
/// (`// …` and `-- …` to the end of the line, `/* … */` across lines) may appear anywhere, before
/// `DEFINE SCHEMA` too, and leave no token. The list always ends with an ``CKDBToken/Kind/end`` token.
enum CKDBLexer {
    /// A `// references TypeName` comment, which declares the record type of the REFERENCE field
    /// on its line (``FieldDefinition/referencedType``).
    struct Annotation: Sendable, Equatable {
        var target: String
        var start: String.Index
    }

    static let annotationPrefix = "references "

    static func scan(_ text: String) throws(RecordError) -> (tokens: [CKDBToken], annotations: [Annotation]) {
        var tokens: [CKDBToken] = []
        var annotations: [Annotation] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            let following = next < text.endIndex ? text[next] : nil
            if character.isWhitespace || character == "\u{FEFF}" {
                index = next
            } else if (character == "/" && following == "/") || (character == "-" && following == "-") {
                let end = text[index...].firstIndex(where: \.isNewline) ?? text.endIndex
                // Trimmed here rather than with Foundation's `trimmingCharacters`, whose first
                // use costs a millisecond of every start (this runs on the built-in schema).
                let comment = text[text.index(after: next)..<end].drop(while: \.isWhitespace)
                if character == "/", comment.hasPrefix(annotationPrefix) {
                    let target = comment.dropFirst(annotationPrefix.count)
                    let targetEnd = target.lastIndex { !$0.isWhitespace }.map(target.index(after:)) ?? target.startIndex
                    annotations.append(Annotation(target: String(target[..<targetEnd]), start: index))
                }
                index = end
            } else if character == "/" && following == "*" {
                index = try endOfBlockComment(startingAt: index, in: text)
            } else if character == "\"" {
                let (name, end) = try quotedName(startingAt: index, in: text)
                tokens.append(CKDBToken(kind: .quoted(name), start: index))
                index = end
            } else if "(),;<>".contains(character) {
                tokens.append(CKDBToken(kind: .punctuation(character), start: index))
                index = next
            } else if isWordCharacter(character) {
                let end = text[index...].firstIndex { !isWordCharacter($0) } ?? text.endIndex
                tokens.append(CKDBToken(kind: .word(String(text[index..<end])), start: index))
                index = end
            } else {
                throw RecordError(
                    .invalidArguments,
                    "unexpected character '\(character)'; names are letters, digits and '_', or written in double quotes",
                    location: SourceLocation(offset: index, in: text)
                )
            }
        }
        tokens.append(CKDBToken(kind: .end, start: text.endIndex))
        return (tokens, annotations)
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// The index just past the `*/` closing the comment opened at `start`.
    private static func endOfBlockComment(startingAt start: String.Index, in text: String) throws(RecordError) -> String.Index {
        let body = text.index(start, offsetBy: 2)
        guard let close = text[body...].firstRange(of: "*/") else {
            throw RecordError(
                .invalidArguments,
                "unterminated comment: '/*' has no closing '*/'",
                location: SourceLocation(offset: start, in: text)
            )
        }
        return close.upperBound
    }

    /// The name quoted at `start` and the index just past its closing quote.
    private static func quotedName(startingAt start: String.Index, in text: String) throws(RecordError) -> (String, String.Index) {
        let body = text.index(after: start)
        guard let close = text[body...].firstIndex(where: { $0 == "\"" || $0.isNewline }), text[close] == "\"" else {
            throw RecordError(
                .invalidArguments,
                "unterminated quoted name: a name opened with '\"' must close with '\"' on the same line",
                location: SourceLocation(offset: start, in: text)
            )
        }
        return (String(text[body..<close]), text.index(after: close))
    }
}
