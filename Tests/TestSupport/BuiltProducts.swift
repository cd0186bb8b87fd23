import Foundation

/// The package's files and the executables it builds, as tests that run whole processes find them.
public enum BuiltProducts {
    /// The package root (this file is Tests/TestSupport/BuiltProducts.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable product `name`, built next to the test bundle (or in `.build/debug`), or
    /// `nil` when it has not been built.
    public static func executable(_ name: String) -> String? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
        let candidates = [besideTests, packageRoot.appendingPathComponent(".build/debug/\(name)").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
