import Foundation
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat
import RecordKit

/// `POST /auth/login`: exchanges a user's name and password (`{"user": NAME, "password": …}`)
/// for a user token, CloudKit's `ckWebAuthToken` (`{"ckWebAuthToken", "userRecordName"}`).
///
/// Attempts are bounded per name and per client address (``LoginThrottle``), checked before
/// the password, so a brute force gets 429 THROTTLED with `Retry-After` and costs no bcrypt
/// work. A wrong name and a wrong password get the same 401 after the same work. The password
/// is verified on the blocking pool, never on the event loop. Neither the password nor the
/// token is logged.
struct LoginController {
    let users: UserStore
    let tokens: TokenStore
    let throttle: LoginThrottle

    /// The largest login body read.
    static let maximumBodySize = 4096

    func addRoutes(to router: some RouterMethods<ServiceRequestContext>) {
        router.post("auth/login") { request, context in try await self.login(request, context: context) }
    }

    private func login(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let buffer = try await request.body.collect(upTo: Self.maximumBodySize)
        let body = try JSONValue.parse(Data(buffer: buffer))
        guard case .string(let nameText)? = body["user"], case .string(let password)? = body["password"] else {
            throw CloudKitError(.badRequest, "send {\"user\": NAME, \"password\": PASSWORD} as JSON")
        }
        if let wait = throttle.admit(name: nameText, address: context.remoteAddressText) {
            let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
            throw ServiceError(
                .tooManyRequests, code: .throttled, "too many login attempts; try again in \(seconds) s",
                headers: [.retryAfter: String(seconds)]
            )
        }
        guard let name = try? UserName(nameText) else { throw Self.refused }
        let users = self.users
        let tokens = self.tokens
        let issued = try await BlockingWork.run { () throws(RecordError) -> AccessToken? in
            guard try users.verify(name, password: password) else { return nil }
            do {
                return try tokens.create(for: .user(name.text)).token
            } catch {
                throw error as? RecordError ?? RecordError(.internalError, "the token could not be stored: \(error)")
            }
        }
        guard let issued else { throw Self.refused }
        let answer: JSONValue = .object([
            "ckWebAuthToken": .string(issued.text),
            "userRecordName": .string(CloudKitUser.recordName(of: .user(name.text))),
        ])
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: answer.serialized)))
    }

    private static var refused: ServiceError {
        ServiceError(.unauthorized, code: .authenticationFailed, "the user name or the password is wrong")
    }
}
