import Foundation
public import RecordKit

/// The process's arguments as text. Swift's `CommandLine.arguments` repairs bytes that are not
/// UTF-8 into U+FFFD, so a `--db` path or an `-e` name holding them would silently name another
/// file or record; they are refused instead, naming the argument.
public enum ProcessArguments {
    /// The arguments after the program's name, each checked to be UTF-8.
    public static func utf8() throws(RecordError) -> [String] {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            guard let argument = String(validatingCString: pointer) else {
                let shown = String(decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
                throw RecordError(
                    .invalidArguments,
                    "argument \(index) ('\(shown)') is not UTF-8 text; shop reads paths, names and commands as UTF-8: rename the file, or type the name in UTF-8"
                )
            }
            arguments.append(argument)
        }
        return arguments
    }
}
