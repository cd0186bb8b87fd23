import Foundation
import NIOCore
import RecordKit

/// Why `shop serve` could not listen on its address, said as what to do: NIO's errors name a
/// system call (`bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`), not the
/// address or the option to change.
enum ListenFailure {
    /// `error`, met starting the server on `host:port`, as a ``RecordError`` naming the address
    /// and the option to change; `nil` when it is not a failure to listen.
    static func describing(_ error: any Error, host: String, port: Int) -> RecordError? {
        let address = "\(host):\(port)"
        switch error {
        case let error as IOError where error.errnoCode == EADDRINUSE:
            return RecordError(
                .invalidArguments,
                "cannot listen on \(address): another program (another shop serve?) listens there; stop it, or choose another --port (0 picks a free one)"
            )
        case let error as IOError where error.errnoCode == EACCES:
            return RecordError(.invalidArguments, "cannot listen on \(address): ports below 1024 need privileges; choose a --port above 1023")
        case let error as IOError where error.errnoCode == EADDRNOTAVAIL:
            return RecordError(.invalidArguments, "cannot listen on \(address): no network interface of this machine has that address; \(hostAdvice)")
        case is SocketAddressError, is SocketAddressError.UnknownHost:
            return RecordError(.invalidArguments, "cannot listen on \(address): '\(host)' is not an address of this machine; \(hostAdvice)")
        default:
            return nil
        }
    }

    private static let hostAdvice = "pass --host 127.0.0.1 (this machine) or 0.0.0.0 (every interface)"
}
