import Foundation
import RecordKit

/// Splits a command line into words the way a shell does: whitespace separates words, `'…'`
/// keeps its text literally, `"…"` keeps its text with `\"` and `\\` escapes, and a backslash
/// outside quotes escapes the next character. Quoted and unquoted parts next to each other make
/// one word (`name='Oat milk'` is the word `name=Oat milk`).
enum LineTokenizer {
    /// One word, with where it starts in the line (in Unicode scalars, for the line editor).
    struct Word: Equatable {
        var text: String
        var start: Int
        /// The quote still open at the end of the line, if the word is unfinished.
        var openQuote: Character?
    }

    /// The words of a complete line; an unterminated quote is an error.
    static func words(_ line: String) throws(RecordError) -> [String] {
        let scanned = scan(line)
        if let last = scanned.words.last, let quote = last.openQuote {
            throw RecordError(.invalidArguments, "unterminated \(quote) quote in: \(line); close it with \(quote)")
        }
        return scanned.words.map(\.text)
    }

    /// The words of a possibly unfinished line, and whether it ends between words (so the next
    /// word has not started yet). Used by completion.
    static func scan(_ line: String) -> (words: [Word], endsBetweenWords: Bool) {
        var words: [Word] = []
        var current: Word?
        var quote: Unicode.Scalar?
        var escaping = false
        for (offset, scalar) in line.unicodeScalars.enumerated() {
            if escaping {
                current?.text.unicodeScalars.append(scalar)
                escaping = false
                continue
            }
            if let open = quote {
                if scalar == open {
                    quote = nil
                } else if scalar == "\\" && open == "\"" {
                    escaping = true
                } else {
                    current?.text.unicodeScalars.append(scalar)
                }
                continue
            }
            if scalar.isWhitespace {
                if let word = current { words.append(word) }
                current = nil
                continue
            }
            if current == nil { current = Word(text: "", start: offset) }
            switch scalar {
            case "'", "\"": quote = scalar
            case "\\": escaping = true
            default: current?.text.unicodeScalars.append(scalar)
            }
        }
        if var word = current {
            word.openQuote = quote.map(Character.init)
            words.append(word)
        }
        return (words, current == nil)
    }

    /// `text` as one word: unchanged when it needs no quoting, else in `'…'` (or `"…"` when it
    /// holds a `'`, or when `preferred` is `"`).
    ///
    /// Decided per Unicode scalar, as ``scan(_:)`` reads: a quote, backslash or space followed by
    /// a combining mark is one `Character`, but still a quote, backslash or space to the scanner.
    static func quote(_ text: String, preferring preferred: Character? = nil) -> String {
        let scalars = text.unicodeScalars
        let special = scalars.isEmpty || scalars.contains { $0.isWhitespace || "'\"\\#".unicodeScalars.contains($0) }
        guard special || preferred != nil else { return text }
        if preferred != "\"" && !scalars.contains("'") {
            return "'\(text)'"
        }
        var escaped = String.UnicodeScalarView()
        for scalar in scalars {
            if scalar == "\\" || scalar == "\"" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return "\"\(String(escaped))\""
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is white space (Unicode's White_Space, as `Character.isWhitespace`
    /// says for a one-scalar character), answered for ASCII without looking up the Unicode
    /// property tables, which was most of the cost of splitting a line into words.
    var isWhitespace: Bool {
        isASCII ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
    }
}
