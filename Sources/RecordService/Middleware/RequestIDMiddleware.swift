import HTTPTypes
public import Hummingbird
import Synchronization

/// Gives each request an id: the client's `X-Request-ID` when it sent a sensible one, else a new
/// one; it is echoed on the response and named in the request's log line.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.requestID = Self.acceptedID(request.headers[.xRequestID]) ?? Self.generatedID()
        var response = try await next(request, context)
        response.headers[.xRequestID] = context.requestID
        return response
    }

    private static let seeds = (UInt64.random(in: 0...UInt64.max), UInt64.random(in: 0...UInt64.max))
    private static let counter = Atomic<UInt64>(0)

    /// A new id in the form of a lowercase version 4 UUID: SplitMix64 over a process-wide
    /// counter from random seeds, so ids never repeat within a process and differ across
    /// processes, without a system call (Foundation's `UUID()` opens and reads `/dev/urandom`
    /// on every call on Linux).
    static func generatedID() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        func mixed(_ seed: UInt64) -> UInt64 {
            var value = seed &+ number &* 0x9E37_79B9_7F4A_7C15
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        let high = mixed(seeds.0) & 0xFFFF_FFFF_FFFF_0FFF | 0x4000  // version 4
        let low = mixed(seeds.1) & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 4122 variant
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, word) in [(0, high), (8, low)] {
            for byte in 0..<8 {
                let position = index + byte
                if position == 4 || position == 6 || position == 8 || position == 10 { text.append(UInt8(ascii: "-")) }
                let value = UInt8(truncatingIfNeeded: word >> (56 - 8 * byte))
                text.append(digits[Int(value >> 4)])
                text.append(digits[Int(value & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The client's id when it is 1 to 200 visible ASCII characters (it goes into logs and headers).
    static func acceptedID(_ id: String?) -> String? {
        guard let id, !id.isEmpty, id.utf8.count <= 200, id.utf8.allSatisfy({ (33...126).contains($0) }) else { return nil }
        return id
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-ID")!
}
