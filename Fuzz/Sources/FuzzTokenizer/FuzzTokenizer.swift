import FuzzSupport
import RecordKit

/// The REPL's line tokenizer and line assembler on arbitrary text. Neither may trap; every word
/// the tokenizer returns must survive quoting (`LineTokenizer.quote`) and tokenizing again
/// unchanged, and completion's scan must find the same words in a complete line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenizer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput.text(data, size)
    var assembler = LineAssembler()
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = String(line)
        _ = try? assembler.feed(line, number: index + 1)
        let scanned = LineTokenizer.scan(line)
        guard let words = try? LineTokenizer.words(line) else { continue }
        if scanned.words.map(\.text) != words {
            FuzzInput.fail("scan found \(scanned.words.map(\.text)), words found \(words)", input: text)
        }
        for word in words {
            let quoted = LineTokenizer.quote(word)
            let again = try? LineTokenizer.words(quoted)
            if again != [word] {
                FuzzInput.fail("\(word.debugDescription) quoted as \(quoted.debugDescription) reads back as \(String(describing: again))", input: text)
            }
        }
    }
    _ = try? assembler.finish()
    return 0
}
