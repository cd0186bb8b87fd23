/// One token of CKDB text, with where it starts so that errors can point at it.
///
/// ``CKDBLexer`` makes them; comments and whitespace only separate tokens and leave none.
struct CKDBToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A bare word: a keyword (matched case-insensitively) or a name.
        case word(String)
        /// A name written in double quotes, without the quotes.
        case quoted(String)
        /// One of `( ) , ; < >`.
        case punctuation(Character)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// Where the token starts in the source text.
    var start: String.Index

    /// The name this token spells, quoted or not, or `nil` for punctuation and the end.
    var name: String? {
        switch kind {
        case .word(let text), .quoted(let text): text
        case .punctuation, .end: nil
        }
    }

    /// The token as an error message shows it: `'STRIN'`, `"name"`, `','`, `the end of the text`.
    var shown: String {
        switch kind {
        case .word(let text): "'\(text)'"
        case .quoted(let text): "\"\(text)\""
        case .punctuation(let mark): "'\(mark)'"
        case .end: "the end of the text"
        }
    }
}
