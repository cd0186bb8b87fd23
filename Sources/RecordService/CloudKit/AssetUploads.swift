import Crypto
import Foundation
import Hummingbird
import NIOCore
import RecordKit
import Synchronization

/// CloudKit's two-step asset upload: `assets/upload` hands out upload tokens (one URL each), a
/// POST of the file's bytes to that URL streams them into a file of the data folder's
/// `uploads` folder under a receipt, and a record saved with `{"receipt": …}` as an ASSET value
/// takes the bytes into the database.
///
/// Tokens and uploads last 15 minutes, as CloudKit's upload URLs do; an expired upload's file is
/// deleted, and the files an earlier run left are deleted at start. The bytes are read into
/// memory only while a record that names their receipt is saved. At most
/// ``maximumPendingBytes`` wait at a time, so uploads never saved cannot fill the disk.
final class AssetUploads: Sendable {
    /// How long an upload URL and an upload's receipt stay valid.
    static let defaultLifetime: Duration = .seconds(15 * 60)
    /// The most bytes uploaded and not yet expired, over all uploads.
    static let maximumPendingBytes = 256 << 20

    /// An upload URL handed out: where its bytes will go.
    struct Token: Sendable {
        var recordName: String
        var recordType: String
        var fieldName: String
        var expires: ContinuousClock.Instant
    }

    /// The dictionary an upload answers with, which the client puts in the record's ASSET field.
    struct Receipt: Sendable {
        var receipt: String
        var fileChecksum: String
        var size: Int

        var json: JSONValue {
            .object([
                "singleFile": .object([
                    "receipt": .string(receipt), "fileChecksum": .string(fileChecksum), "size": .integer(Int64(size)),
                ])
            ])
        }
    }

    /// An upload's file, until it expires.
    private struct Upload {
        var path: String
        var size: Int
        var expires: ContinuousClock.Instant
    }

    private struct State {
        var tokens: [String: Token] = [:]
        var uploads: [String: Upload] = [:]
        var pendingBytes = 0

        /// Forgets what expired; returns the files to delete.
        mutating func dropExpired(now: ContinuousClock.Instant) -> [String] {
            tokens = tokens.filter { $0.value.expires > now }
            var expired: [String] = []
            for (receipt, upload) in uploads where upload.expires <= now {
                pendingBytes -= upload.size
                uploads[receipt] = nil
                expired.append(upload.path)
            }
            return expired
        }
    }

    /// The folder the uploaded files are kept in.
    let folder: String
    private let lifetime: Duration
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// Uploads kept in `folder` (created when missing; files left in it by an earlier run are
    /// deleted), each for `lifetime`.
    init(folder: String, lifetime: Duration = AssetUploads.defaultLifetime) throws(RecordError) {
        self.folder = folder
        self.lifetime = lifetime
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for leftover in try files.contentsOfDirectory(atPath: folder) {
                try files.removeItem(atPath: folder + "/" + leftover)
            }
        } catch {
            throw RecordError(
                .internalError, "cannot prepare the uploads folder \(folder): \(error.localizedDescription); check the data folder's permissions",
                underlyingError: error)
        }
    }

    /// A new upload token for `fieldName` of the record `recordName` of `recordType`.
    func issueToken(recordName: String, recordType: String, fieldName: String) -> String {
        let token = Record.generatedName()
        let now = clock.now
        let expired = state.withLock { state in
            state.tokens[token] = Token(recordName: recordName, recordType: recordType, fieldName: fieldName, expires: now + lifetime)
            return state.dropExpired(now: now)
        }
        Self.delete(expired)
        return token
    }

    /// Streams `body`, uploaded to `token`'s URL, into a file and returns its receipt:
    /// `NOT_FOUND` for a token unknown or expired, `QUOTA_EXCEEDED` for a body past `limit`
    /// bytes (the upload limit, an asset's) or when too many bytes wait; a failed upload leaves no file.
    func upload<Body: AsyncSequence>(
        _ body: Body, token: String, limit: Int, context: some RequestContext
    ) async throws -> Receipt where Body.Element == ByteBuffer {
        let now = clock.now
        let (claimed, expired) = state.withLock { state in
            (state.tokens.removeValue(forKey: token) != nil, state.dropExpired(now: now))
        }
        Self.delete(expired)
        guard claimed else {
            throw CloudKitError(.notFound, "this upload URL is unknown or has expired (they last 15 minutes); ask assets/upload for a new one")
        }
        let path = folder + "/" + RandomUUID.lowercased()
        let digest = UploadDigest(limit: limit)
        do {
            try await FileIO().writeFile(contents: body.map { chunk in try digest.add(chunk) }, path: path, context: context)
            let size = digest.size
            try state.withLock { state throws(CloudKitError) in
                guard state.pendingBytes + size <= Self.maximumPendingBytes else {
                    throw CloudKitError(.quotaExceeded, "too many uploaded bytes wait to be saved in records; save the uploads you made, or retry later")
                }
                state.pendingBytes += size
                state.uploads[token] = Upload(path: path, size: size, expires: clock.now + lifetime)
            }
            return Receipt(receipt: token, fileChecksum: digest.sha256, size: size)
        } catch {
            Self.delete([path])
            // The file system may wrap the error the stream threw.
            if digest.size > limit { throw UploadDigest.tooLarge(limit) }
            throw error
        }
    }

    /// The bytes uploaded under `receipt`, while it is valid.
    func content(receipt: String) -> Data? {
        let now = clock.now
        let path = state.withLock { state in state.uploads[receipt].flatMap { $0.expires > now ? $0.path : nil } }
        return path.flatMap { FileManager.default.contents(atPath: $0) }
    }

    private static func delete(_ paths: [String]) {
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// The size and SHA-256 of an upload's bytes as they stream past, refusing them past a limit.
private final class UploadDigest: Sendable {
    private let state = Mutex((hasher: SHA256(), size: 0))
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    var size: Int { state.withLock { $0.size } }

    var sha256: String {
        state.withLock { state in HexDigits.lowercase(state.hasher.finalize()) }
    }

    func add(_ chunk: ByteBuffer) throws(CloudKitError) -> ByteBuffer {
        try state.withLock { state throws(CloudKitError) in
            state.size += chunk.readableBytes
            guard state.size <= limit else { throw Self.tooLarge(limit) }
            chunk.withUnsafeReadableBytes { state.hasher.update(bufferPointer: $0) }
        }
        return chunk
    }

    static func tooLarge(_ limit: Int) -> CloudKitError {
        CloudKitError(.quotaExceeded, "the upload is larger than \(limit) bytes, the most an asset holds; upload a smaller file")
    }
}
