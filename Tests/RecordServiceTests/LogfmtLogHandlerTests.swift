import Foundation
import Logging
import Testing

@testable import RecordService

@Suite("The service's log lines")
struct LogfmtLogHandlerTests {
    @Test func aRequestLineIsLogfmtWithUTCTimeAndItsMetadataInKeyOrder() {
        let line = LogfmtLogHandler.line(
            time: Date(timeIntervalSince1970: 1_795_000_000.123), level: .info, logger: "shop serve", message: "request",
            metadata: ["status": "200", "method": "POST", "path": "/graphql", "duration_ms": "0.446"])
        #expect(
            line
                == #"time=2026-11-18T11:06:40.123Z level=info logger="shop serve" msg=request duration_ms=0.446 method=POST path=/graphql status=200"#
                + "\n")
    }

    @Test func valuesWithSpacesQuotesEqualsOrControlCharactersAreQuotedAndEscaped() {
        let line = LogfmtLogHandler.line(
            time: Date(timeIntervalSince1970: 0), level: .warning, logger: "l", message: "say \"hi\"\nthen go",
            metadata: ["empty": "", "equals": "a=b", "tab": "a\tb", "bell": "\u{7}", "plain": "a\\b"])
        #expect(
            line
                == #"time=1970-01-01T00:00:00.000Z level=warning logger=l msg="say \"hi\"\nthen go" bell="\u0007" empty="" equals="a=b" plain=a\b tab="a\tb""#
                + "\n")
    }

    @Test func aLoggerWritesOneLineWithItsOwnThenTheEventsMetadata() throws {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        var logger = Logger(label: "shop serve") { LogfmtLogHandler(label: $0, descriptor: descriptor) }
        logger[metadataKey: "database"] = "public"
        logger.debug("below the level")
        logger.info("request", metadata: ["database": "private", "status": "404"])
        try pipe.fileHandleForWriting.close()
        let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = written.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix(#" level=info logger="shop serve" msg=request database=private status=404"#) == true)
    }
}
