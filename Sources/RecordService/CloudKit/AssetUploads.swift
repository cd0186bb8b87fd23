import Crypto
import Foundation
import RecordKit
import Synchronization

/// CloudKit's two-step asset upload, in memory: `assets/upload` hands out upload tokens (one
/// URL each), a POST of the file's bytes to that URL keeps them under a receipt, and a record
/// saved with `{"receipt": …}` as an ASSET value takes the bytes into the database.
///
/// Tokens and uploaded bytes last 15 minutes, as CloudKit's upload URLs do; at most
/// ``maximumPendingBytes`` wait at a time, so uploads never saved cannot exhaust memory.
final class AssetUploads: Sendable {
    /// How long an upload URL and an upload's receipt stay valid.
    static let lifetime: Duration = .seconds(15 * 60)
    /// The most bytes uploaded and not yet saved in a record, over all uploads.
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

    private struct State {
        var tokens: [String: Token] = [:]
        var uploads: [String: (content: Data, expires: ContinuousClock.Instant)] = [:]
        var pendingBytes = 0

        mutating func dropExpired(now: ContinuousClock.Instant) {
            tokens = tokens.filter { $0.value.expires > now }
            for (receipt, upload) in uploads where upload.expires <= now {
                pendingBytes -= upload.content.count
                uploads[receipt] = nil
            }
        }
    }

    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// A new upload token for `fieldName` of the record `recordName` of `recordType`.
    func issueToken(recordName: String, recordType: String, fieldName: String) -> String {
        let token = Record.generatedName()
        let now = clock.now
        state.withLock { state in
            state.dropExpired(now: now)
            state.tokens[token] = Token(recordName: recordName, recordType: recordType, fieldName: fieldName, expires: now + Self.lifetime)
        }
        return token
    }

    /// Keeps `content` uploaded to `token`'s URL and returns its receipt; `NOT_FOUND` for a
    /// token unknown or expired, `QUOTA_EXCEEDED` when too many bytes wait to be saved.
    func upload(_ content: Data, token: String) throws(CloudKitError) -> Receipt {
        let now = clock.now
        let checksum = Asset(content: content).sha256
        return try state.withLock { state throws(CloudKitError) -> Receipt in
            state.dropExpired(now: now)
            guard state.tokens.removeValue(forKey: token) != nil else {
                throw CloudKitError(.notFound, "this upload URL is unknown or has expired (they last 15 minutes); ask assets/upload for a new one")
            }
            guard state.pendingBytes + content.count <= Self.maximumPendingBytes else {
                throw CloudKitError(.quotaExceeded, "too many uploaded bytes wait to be saved in records; save the uploads you made, or retry later")
            }
            state.pendingBytes += content.count
            state.uploads[token] = (content, now + Self.lifetime)
            return Receipt(receipt: token, fileChecksum: checksum, size: content.count)
        }
    }

    /// The bytes uploaded under `receipt`, while it is valid.
    func content(receipt: String) -> Data? {
        let now = clock.now
        return state.withLock { state in
            guard let upload = state.uploads[receipt], upload.expires > now else { return nil }
            return upload.content
        }
    }
}
