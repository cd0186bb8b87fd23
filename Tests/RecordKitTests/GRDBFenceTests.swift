import Foundation
import TestSupport
import Testing

/// GRDB cannot leak into RecordKit's public API: RecordKit builds with `InternalImportsByDefault`
/// (`librarySettings` in Package.swift), under which a file's `import GRDB` is internal, and the
/// compiler then refuses a public declaration that shows a GRDB type. Shown by compiling, against
/// the GRDB this package builds, a file that makes a GRDB type public: refused with the flag,
/// accepted without it (so the refusal is the flag's, not a broken set-up).
@Suite struct GRDBFenceTests {
    static let leak = """
        import GRDB

        public func leakedQueue() -> DatabaseQueue { fatalError() }
        """

    @Test func theLibraryFlagsMakeAPublicGRDBTypeACompileError() throws {
        let fenced = try Self.typecheck(Self.leak, flags: ["-enable-upcoming-feature", "InternalImportsByDefault"])
        #expect(fenced.status != 0)
        #expect(fenced.errors.contains("cannot be declared public because its result uses an internal type"), "\(fenced.errors)")
        #expect(fenced.errors.contains("'DatabaseQueue' is imported by this file as 'internal' from 'GRDB'"), "\(fenced.errors)")

        let unfenced = try Self.typecheck(Self.leak, flags: [])
        #expect(unfenced.status == 0, "\(unfenced.errors)")
    }

    @Test func recordKitBuildsWithTheFlag() throws {
        let manifest = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let settings = try #require(manifest.firstMatch(of: /let librarySettings: \[SwiftSetting\] = \[([^\]]*)\]/)?.1)
        #expect(settings.contains(#".enableUpcomingFeature("InternalImportsByDefault")"#))
        // From RecordKit's name to the next target's.
        let start = try #require(manifest.firstMatch(of: /\.target\(\s*name: "RecordKit",/))
        let rest = manifest[start.range.upperBound...]
        let end = [".target(", ".testTarget(", ".executableTarget("].compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
        let recordKit = rest[..<end]
        #expect(recordKit.contains("swiftSettings: librarySettings"), "\(recordKit)")
    }

    /// `swiftc -typecheck` of `source` with `flags`, importing the GRDB module of this build.
    static func typecheck(_ source: String, flags: [String]) throws -> ProcessRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-fence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Leak.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let modules = try #require(
            Self.buildFolders.map { $0.appendingPathComponent("Modules") }.first {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("GRDB.swiftmodule").path)
            }, "GRDB.swiftmodule is not built; run swift build --build-tests first")
        let sqliteModule = BuiltProducts.packageRoot.appendingPathComponent(".build/checkouts/GRDB.swift/Sources/GRDBSQLite")
        return try ChildProcess.run(
            "/usr/bin/env",
            [
                "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-I", modules.path, "-I", sqliteModule.path,
                "-module-cache-path", folder.appendingPathComponent("cache").path, file.path,
            ] + flags,
            timeout: 300)
    }

    /// Where the build's products may be: beside the test bundle, or in `.build/debug`.
    static var buildFolders: [URL] {
        [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            BuiltProducts.packageRoot.appendingPathComponent(".build/debug"),
        ]
    }
}
