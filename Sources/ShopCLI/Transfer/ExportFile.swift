import Foundation
import RecordKit

/// The file an export writes, so that a failed export changes nothing and a successful one
/// writes where the path points.
///
/// - A regular file (or a path with nothing there yet) gets its text in a new file beside it,
///   renamed over it only once every byte is written: until then the old file is as it was, and
///   a failure removes the new one. The new file takes the old one's permissions (a file kept
///   `chmod 600` stays private), or the umask's for a new path.
/// - A symbolic link is followed: the file it points to is the one replaced; the link stays.
/// - Anything else that exists — a pipe, a terminal, a device, and whatever `/dev/stdout` or
///   another of the process's descriptors leads to — is written to directly, as `>` in a shell
///   would (a failure there cannot be undone). A file the user may not write is refused.
final class ExportFile {
    /// The path as the user gave it, for messages.
    let path: String
    private let descriptor: Int32
    /// The new file to rename over `target`, or `nil` when writing to `target` directly.
    private let staging: String?
    private let target: String
    private var finished = false

    /// Whether `path` names the process's standard output, which an export writes through the
    /// console (in order with the output before it), as when no file is named.
    static func namesStandardOutput(_ path: String) -> Bool {
        ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].contains(path)
    }

    /// Opens `path` for an export; refused, naming it, when it cannot be written.
    init(path: String) throws(RecordError) {
        self.path = path
        // The file a link points to is the one replaced (realpath follows every link); a link
        // that leads to no path (`/dev/stdout` to a pipe) is written through, as anything else
        // that is not a regular file.
        let resolved = Self.resolved(path)
        let attributes = resolved.flatMap { try? FileManager.default.attributesOfItem(atPath: $0) }
        let type = attributes?[.type] as? FileAttributeType
        guard type != .typeDirectory else {
            throw RecordError(.invalidArguments, "cannot write \(path): it is a folder; name a file in it")
        }
        let exists = (try? FileManager.default.attributesOfItem(atPath: path)) != nil
        // A file the user may not write is refused, as `>` refuses it: renaming over it would
        // go around its mode.
        if exists, let resolved, access(resolved, W_OK) != 0 {
            throw RecordError(
                .invalidArguments, "cannot write \(path): \(String(cString: strerror(errno))); name another file, or make it writable (chmod u+w)")
        }
        // The process's own descriptors (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`) are
        // written through, whatever file they lead to.
        let isDescriptor = ["/dev/", "/proc/"].contains { path.hasPrefix($0) }
        if exists, type != .typeRegular || isDescriptor {
            target = path
            // Appending, as another open of a file the shell opened with `>>` must.
            descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            staging = nil
        } else {
            target = resolved ?? path
            let folder = (target as NSString).deletingLastPathComponent
            let name = (target as NSString).lastPathComponent
            var template = Array(((folder.isEmpty ? "." : folder) + "/.\(name).shop-export-XXXXXX").utf8CString)
            descriptor = mkstemp(&template)
            staging = descriptor >= 0 ? template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : nil
            let mode = (attributes?[.posixPermissions] as? Int).map { mode_t($0) } ?? Self.newFileMode
            if descriptor >= 0 { fchmod(descriptor, mode) }
        }
        guard descriptor >= 0 else {
            throw RecordError(.invalidArguments, "cannot write \(path): \(String(cString: strerror(errno))); check that its folder exists and may be written")
        }
    }

    deinit {
        if !finished { abandon() }
    }

    /// Appends `text`.
    func write(_ text: String) throws(RecordError) {
        if let failure = DescriptorWrite.all(text, to: descriptor) { throw failed(failure) }
    }

    /// Puts the written text in place: the new file renamed over the old (after it reached the
    /// disk), or the direct target closed.
    func commit() throws(RecordError) {
        finished = true
        guard let staging else {
            close(descriptor)
            return
        }
        if fsync(descriptor) != 0 {
            let failure = errno
            abandonStaging(staging)
            throw failed(failure)
        }
        close(descriptor)
        guard rename(staging, target) == 0 else {
            let failure = errno
            unlink(staging)
            throw failed(failure)
        }
    }

    /// Gives the export up: the new file is removed, the old one left as it was.
    func abandon() {
        finished = true
        if let staging { abandonStaging(staging) } else { close(descriptor) }
    }

    private func abandonStaging(_ staging: String) {
        close(descriptor)
        unlink(staging)
    }

    private func failed(_ code: Int32) -> RecordError {
        DescriptorWrite.error(writing: path, errorNumber: code, staging == nil ? "" : "; \(path) is as it was")
    }

    /// `path` with every link followed, or `nil` when nothing is there (or a link leads nowhere).
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The permissions of a new file under the process's umask.
    private static var newFileMode: mode_t {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }
}
