/// How many terminal columns text takes, as `wcwidth(3)` counts them, from the Unicode
/// properties Swift exposes: East Asian wide and fullwidth characters (CJK ideographs, kana,
/// Hangul, fullwidth forms) and emoji shown as emoji take two columns; combining marks, format
/// characters (zero-width joiner, variation selectors) and controls take none; everything else
/// one. A `Character` is a whole grapheme cluster, so an emoji ZWJ sequence, a flag or a letter
/// with its accents is measured once.
extension Character {
    var displayWidth: Int {
        let scalars = unicodeScalars
        guard let base = scalars.first else { return 0 }
        let properties = base.properties
        switch properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if properties.isEmojiPresentation { return 2 }
        if properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        if properties.isIdeographic || Self.isWide(base.value) { return 2 }
        return 1
    }

    /// The East Asian Wide and Fullwidth blocks that are not ideographs.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
            0x3400...0x4DBF,  // CJK extension A
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms
            0xFFE0...0xFFE6,
            0x20000...0x3FFFD:  // CJK extensions B and later
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The terminal columns the text takes (see ``Character/displayWidth``).
    var displayWidth: Int {
        // ASCII, nearly every cell, without the Unicode property tables: a printable byte is one
        // column, a control none (as ``Character/displayWidth`` says for them).
        var width = 0
        for byte in utf8 {
            guard byte < 0x80 else { return reduce(0) { $0 + $1.displayWidth } }
            if byte >= 0x20 && byte != 0x7F { width += 1 }
        }
        return width
    }

    /// The text cut to at most `width` columns, ending in `…` when it was cut.
    func truncated(toWidth width: Int) -> String {
        guard displayWidth > width else { return self }
        var kept = ""
        var used = 0
        for character in self {
            let next = character.displayWidth
            guard used + next <= width - 1 else { break }
            kept.append(character)
            used += next
        }
        return kept + "…"
    }
}
