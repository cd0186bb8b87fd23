import Foundation

/// The CKDB files the tests read, found relative to this source file.
///
/// `Fixtures/ckdb` holds `real-*.ckdb` (schemas published in public repositories, each opening
/// with a comment naming its source) and `own-*.ckdb` (written for these tests).
enum CKDBFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ckdb")

    /// The bootstrap schema of a new shop database.
    static let bootstrapSchema = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../../Schemas/shopping.ckdb")
        .standardizedFileURL

    /// The fixture file names starting with `prefix`, sorted.
    static func names(prefix: String) -> [String] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".ckdb") }.sorted()
    }

    /// The text of the fixture `name`.
    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// `text` without the `//` comment lines it opens with (a fixture's source note).
    static func withoutLeadingComments(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.drop { $0.hasPrefix("//") }.joined(separator: "\n")
    }
}
