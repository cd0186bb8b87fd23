import Foundation
import TestSupport

/// Makes a file or folder read-only for this process: `chmod a-w` for a user, and for root
/// (whom permissions do not stop) the immutable attribute, `chattr +i`.
enum WriteProtection {
    /// Whether protection works here: always for a user; for root, when `chattr +i` does on the
    /// temporary folder's file system.
    static let isAvailable: Bool = {
        guard geteuid() == 0 else { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("chattr-probe-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: probe, contents: nil) else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard chattr("+i", probe) else { return false }
        return chattr("-i", probe)
    }()

    static func protect(_ path: String) {
        if geteuid() == 0 {
            _ = chattr("+i", path)
        } else {
            _ = chmod(path, isFolder(path) ? 0o555 : 0o444)
        }
    }

    static func unprotect(_ path: String) {
        if geteuid() == 0 {
            _ = chattr("-i", path)
        } else {
            _ = chmod(path, isFolder(path) ? 0o755 : 0o644)
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        (try? ChildProcess.run("/usr/bin/chattr", [flag, path]))?.status == 0
    }
}
