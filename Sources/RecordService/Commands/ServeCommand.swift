import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// `shop serve`: serves the data folder until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the data folder: CloudKit Web Services and GraphQL over HTTP.",
        discussion: """
            Prints 'shop serve: listening on http://HOST:PORT' once it accepts connections. \
            SIGTERM or SIGINT stops accepting, finishes the requests in flight (up to 10 s) and exits 0.
            Example: shop serve --port 0 --data /tmp/shop-data
            """
    )

    @OptionGroup var data: DataOption
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
    @Option(help: "The CloudKit container served.") var container = ServiceConfiguration.defaultContainer
    @Option(
        name: .customLong("transaction-retention"),
        help: ArgumentHelp("How long idempotency keys and their stored responses are kept: 90s, 30m, 24h, 7d.", valueName: "DURATION")
    )
    var transactionRetention = DurationArgument(ServiceConfiguration.defaultTransactionRetention)
    @Option(
        name: .customLong("read-timeout"),
        help: ArgumentHelp(
            "How long a request's headers, and then its body (a second more for each 64 KiB), may take to arrive; a slower request gets 408 Request Timeout. 10s, 2m.",
            valueName: "DURATION")
    )
    var readTimeout = DurationArgument(ServiceConfiguration.defaultReadTimeout)
    @Option(
        name: .customLong("change-retention"),
        help: ArgumentHelp(
            "How long the change feed keeps deletions: a sync token older than this may have to start over. 90s, 30m, 24h, 30d.",
            valueName: "DURATION")
    )
    var changeRetention = DurationArgument(ServiceConfiguration.defaultChangeRetention)
    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "A web page's origin whose scripts may call the service from a browser (CORS), e.g. https://app.example; repeat it for more. "
                + "* lets any page (the default), none no page. Every request still needs its token.",
            valueName: "ORIGIN")
    )
    var allowOrigin: [String] = []

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, not \(port)") }
        do {
            _ = try BrowserOrigins(arguments: allowOrigin)
        } catch {
            throw ValidationError(error.description)
        }
        guard readTimeout.duration > .zero else {
            throw ValidationError("--read-timeout must be above 0 (e.g. 30s), not '\(readTimeout)'")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap(LogfmtLogHandler.standardError)
        var logger = Logger(label: "shop serve")
        logger.logLevel = .info
        let configuration = ServiceConfiguration(
            host: host, port: port, data: try data.folder(), container: container,
            transactionRetention: transactionRetention.duration,
            changeRetention: changeRetention.duration,
            readTimeout: readTimeout.duration,
            browserOrigins: try BrowserOrigins(arguments: allowOrigin)
        )
        let state = try ServiceState(configuration: configuration)
        let host = self.host
        let app = try await buildApplication(state, logger: logger) { port in
            print("shop serve: listening on http://\(host):\(port)")
            fflush(nil)
        }
        // Stopped in reverse order: the WebSocket sessions close with 1001 before the HTTP server stops.
        var group = ServiceGroupConfiguration(services: [app, state.webSocketSessions], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(10)
        do {
            try await ServiceGroup(configuration: group).run()
        } catch {
            throw ListenFailure.describing(error, host: host, port: port) ?? error
        }
    }
}
