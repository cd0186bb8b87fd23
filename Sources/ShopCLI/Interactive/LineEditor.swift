import CEditLine
import Foundation

/// Line editing at a terminal over libedit: a prompt, emacs keys and arrows, a history kept in a
/// file across runs, tab completion, and Ctrl-C that abandons the line being typed.
///
/// While a line is edited the terminal delivers Ctrl-C as a key (ISIG is off in edit mode), so
/// it abandons the line instead of ending the program; Ctrl-D on an empty line ends the input.
final class LineEditor {
    /// What reading a line gave.
    enum Input: Equatable {
        case line(String)
        /// Ctrl-C: the line was abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or the terminal closed.
        case endOfInput
    }

    /// Completes the text before the cursor.
    var complete: (String) -> Completion = { Completion(typed: $0, candidates: []) }

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let historyPath: String?
    private var prompt: UnsafeMutablePointer<CChar>?
    private var interrupted = false

    /// An editor on the process's terminal, with the history in `historyPath` (loaded now,
    /// saved after every line); `nil` when libedit cannot start.
    init?(historyPath: String?) {
        guard let input = fdopen(STDIN_FILENO, "r"), let output = fdopen(STDOUT_FILENO, "w"),
            let errors = fdopen(STDERR_FILENO, "w"), let editLine = el_init("shop", input, output, errors)
        else { return nil }
        guard let history = shop_history_open(1000) else {
            el_end(editLine)
            return nil
        }
        self.editLine = editLine
        self.history = history
        self.output = output
        self.historyPath = historyPath
        if let historyPath { _ = shop_history_load(history, historyPath) }
        shop_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
        shop_el_set_editor(editLine, "emacs")
        shop_el_set_history(editLine, history)
        shop_el_set_prompt(editLine) { editLine in LineEditor.owner(of: editLine)?.prompt }
        shop_el_keys_instead_of_signals(editLine)
        shop_el_add_function(editLine, "shop-complete", "Complete the word before the cursor") { editLine, _ in
            LineEditor.owner(of: editLine)?.completeAtCursor() ?? UInt8(CC_ERROR)
        }
        shop_el_bind(editLine, "^I", "shop-complete")
        shop_el_add_function(editLine, "shop-interrupt", "Abandon the line being typed") { editLine, _ in
            LineEditor.owner(of: editLine)?.interrupted = true
            return UInt8(CC_EOF)
        }
        shop_el_bind(editLine, "^C", "shop-interrupt")
        // A Ctrl-D typed while a command runs (the terminal is then in canonical mode) is kept
        // by the terminal as an end-of-file mark, which reaches libedit as a NUL byte once it
        // switches to edit mode: NUL is read as the Ctrl-D it was, so a Ctrl-D typed ahead still
        // leaves (emacs mode had NUL, Ctrl-Space, set the mark).
        shop_el_add_function(editLine, "shop-typed-ahead-ctrl-d", "A Ctrl-D typed while a command ran") { editLine, _ in
            el_push(editLine, "\u{4}")
            return UInt8(CC_NORM)
        }
        shop_el_bind(editLine, "^@", "shop-typed-ahead-ctrl-d")
    }

    deinit {
        el_end(editLine)
        history_end(history)
        free(prompt)
    }

    /// Shows `prompt` and reads one line (without its line end); a recalled entry of several
    /// lines comes back whole, its lines joined by line ends. The caller decides what enters the
    /// history (``remember(_:)``).
    func readLine(prompt text: String) -> Input {
        free(prompt)
        prompt = strdup(text)
        interrupted = false
        var count: Int32 = 0
        guard let line = el_gets(editLine, &count), count > 0 else {
            write(interrupted ? "^C\n" : "\n")
            return interrupted ? .interrupted : .endOfInput
        }
        var text = String(cString: line)
        if text.hasSuffix("\n") { text.removeLast() }
        return .line(text)
    }

    /// Adds `entry` to the history (and its file) as one entry, which the up arrow recalls
    /// whole: a GraphQL document typed over several lines is kept with its line ends.
    func remember(_ entry: String) {
        guard !entry.trimmingWhitespace.isEmpty else { return }
        shop_history_enter(history, entry)
        if let historyPath { _ = shop_history_save(history, historyPath) }
    }

    private func write(_ text: String) {
        fputs(text, output)
        fflush(output)
    }

    /// The Tab key: one candidate replaces the word; several extend it to their common prefix,
    /// or are listed when they have none longer than what is typed.
    private func completeAtCursor() -> UInt8 {
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor else {
            return UInt8(CC_ERROR)
        }
        let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
        let completion = complete(before)
        guard let first = completion.candidates.first else { return UInt8(CC_ERROR) }
        if completion.candidates.count == 1 {
            replace(completion.typed, with: first + (first.hasSuffix("=") ? "" : " "))
            return UInt8(CC_REFRESH)
        }
        let common = completion.commonPrefix
        if common.count > completion.typed.count {
            replace(completion.typed, with: common)
            return UInt8(CC_REFRESH)
        }
        write("\n" + completion.candidates.joined(separator: "  ") + "\n")
        return UInt8(CC_REDISPLAY)
    }

    private func replace(_ typed: String, with text: String) {
        el_deletestr(editLine, Int32(typed.unicodeScalars.count))
        _ = el_insertstr(editLine, text)
    }

    private static func owner(of editLine: OpaquePointer?) -> LineEditor? {
        guard let editLine, let data = shop_el_client_data(editLine) else { return nil }
        return Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
    }
}
