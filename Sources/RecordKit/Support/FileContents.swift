public import Foundation

/// A file read whole, up to a limit: a script, a schema, an import, a key. Read in pieces, so a
/// file with no end (`/dev/zero`) or a far larger one than meant fails at the limit instead of
/// filling memory; a pipe such as `/dev/stdin` is read to its end like a file.
public enum FileContents {
    /// The bytes of `path`, or `invalidArguments` saying why it cannot be read; past
    /// `maximumBytes`, `limitExceeded` naming the limit, then `remedy` (e.g. `; split it`).
    public static func read(_ path: String, maximumBytes: Int, remedy: String = "") throws(RecordError) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw RecordError(.invalidArguments, "cannot read \(path): it does not exist")
        }
        guard !isFolder.boolValue else {
            throw RecordError(.invalidArguments, "cannot read \(path): it is a folder; name a file in it")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RecordError(.invalidArguments, "cannot read \(path): it cannot be read (check its permissions)")
        }
        defer { try? handle.close() }
        var contents = Data()
        do {
            // A piece of no bytes is the end (`nil` at once: an empty file, not a failure).
            while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
                guard contents.count + piece.count <= maximumBytes else {
                    throw RecordError(
                        .limitExceeded, "cannot read \(path): it is larger than \(size(maximumBytes)) (or has no end, as /dev/zero)\(remedy)")
                }
                contents.append(piece)
            }
        } catch let error as RecordError {
            throw error
        } catch {
            throw RecordError(.invalidArguments, "cannot read \(path): \(error.localizedDescription)")
        }
        return contents
    }

    /// `bytes` in MiB or KiB when it is a whole number of them (`256 MiB`), else in bytes.
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
