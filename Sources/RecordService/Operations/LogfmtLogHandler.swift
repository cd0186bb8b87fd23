import Foundation
public import Logging
import RecordKit

/// The service's log lines on standard error, in logfmt: one line per event,
/// `time=2026-11-27T17:07:28.123Z level=info logger="shop serve" msg=request` then the
/// metadata as `key=value` pairs in key order (`duration_ms=0.446 method=POST path=/graphql
/// request_id=… status=200`).
///
/// Built for one line per request: the time is UTC, formatted without the time zone files that
/// `localtime` consults on every call (swift-log's `StreamLogHandler` spent a third of its
/// time there), and a line reaches the stream in one `write`, so lines from different threads
/// never interleave.
public struct LogfmtLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    public var metadata = Logger.Metadata()
    private let label: String
    private let descriptor: Int32

    /// A handler for the logger `label` writing to standard error.
    public static func standardError(label: String) -> LogfmtLogHandler {
        LogfmtLogHandler(label: label, descriptor: STDERR_FILENO)
    }

    init(label: String, descriptor: Int32) {
        self.label = label
        self.descriptor = descriptor
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let line = Self.line(
            time: Date(), level: event.level, logger: label, message: event.message.description, metadata: effectiveMetadata(event.metadata))
        // A log that cannot be written (a full disk) loses the line; the service goes on.
        _ = DescriptorWrite.all(line, to: descriptor)
    }

    /// The handler's metadata, the provider's, then the event's: a later one wins a shared key.
    private func effectiveMetadata(_ event: Logger.Metadata?) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let event { merged.merge(event) { _, new in new } }
        return merged
    }

    /// One logfmt line, ending in a line break.
    static func line(time: Date, level: Logger.Level, logger: String, message: String, metadata: Logger.Metadata) -> String {
        var line = "time="
        line.reserveCapacity(160)
        line += Timestamp.format(time)
        line += " level=" + level.rawValue
        append("logger", logger, to: &line)
        append("msg", message, to: &line)
        for key in metadata.keys.sorted() {
            append(key, metadata[key]!.description, to: &line)
        }
        line += "\n"
        return line
    }

    /// ` key=value`, the value quoted when it is empty or holds a space, `=`, a quote or a
    /// control character, so that every line splits back into its pairs: as a JSON string
    /// (`\"`, `\\`, `\n`, `\u0007`), which logfmt readers take as a quoted value.
    private static func append(_ key: String, _ value: String, to line: inout String) {
        line += " " + key + "="
        let needsQuotes = value.isEmpty || value.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\"") || $0 == 0x7F }
        line += needsQuotes ? JSONText.string(value) : value
    }
}
