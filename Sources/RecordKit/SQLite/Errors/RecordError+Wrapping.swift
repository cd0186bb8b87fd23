import Foundation
internal import GRDB

extension RecordError {
    /// `error` as a `RecordError`: itself when it is one, SQLite's errors as the code that says
    /// what to do, anything else `internalError` keeping it as the cause. For callers of
    /// ``RecordDatabase/read(_:)`` and ``RecordDatabase/write(_:)`` whose bodies throw only
    /// RecordKit's errors and want them typed.
    public init(wrapping error: any Error) {
        self = Self.wrapping(error, path: nil)
    }

    /// `error` as a `RecordError`: record errors pass through; SQLite errors become the code
    /// that says what to do (busy, disk full, read-only, not a database), keeping the cause.
    static func wrapping(_ error: any Error, path: String?) -> RecordError {
        if let error = error as? RecordError { return error }
        if let limit = sqliteLimit(error) { return limit }
        let file = path ?? "the in-memory database"
        guard let error = error as? DatabaseError else {
            return RecordError(.internalError, "unexpected failure on \(file): \(error)", underlyingError: UncheckedCause(error))
        }
        let (code, reason, message, remedy): (Code, Reason?, String, Remedy?) =
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                (.internalError, .busy, "\(file) is busy: another process kept it locked too long; retry", nil)
            case .SQLITE_FULL:
                (.limitExceeded, .diskFull, "\(file) is full (no disk space or page limit reached); free space and retry — nothing was written", nil)
            case .SQLITE_READONLY:
                (.invalidArguments, .readOnly, "\(file) is read-only; check its permissions (and those of its folder) or open a writable copy", nil)
            case .SQLITE_CANTOPEN where path.map(isFolder) == true:
                (.invalidArguments, .folderUnavailable, "cannot open \(file): it is a folder, not a database file; pass the path of a file in it", nil)
            case .SQLITE_CANTOPEN:
                (
                    .invalidArguments, .folderUnavailable, "cannot open \(file): its folder does not exist or is not writable",
                    .createFolderOrChooseAnotherDatabase
                )
            case .SQLITE_IOERR:
                (
                    .internalError, .ioError,
                    "cannot read or write \(file): disk I/O error (the disk may be full or failing); free space or check the disk and retry — a change that failed was not saved",
                    nil
                )
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                (.invalidArguments, .notADatabase, "\(file) is not a shop database (or is damaged)", .chooseAnotherDatabase)
            case .SQLITE_TOOBIG:
                (.limitExceeded, nil, "a value is too large to store in \(file)", nil)
            default:
                (.internalError, nil, "SQLite failed on \(file): \(error.message ?? error.description)", nil)
            }
        return RecordError(code, message, underlyingError: error, reason: reason, remedy: remedy)
    }
}

/// Whether `path` names an existing folder.
private func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
}

/// Keeps a non-`Sendable` cause as the underlying error, by its description.
struct UncheckedCause: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = String(describing: error) }
}
