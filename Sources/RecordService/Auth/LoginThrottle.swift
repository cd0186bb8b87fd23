import Foundation
import Synchronization

/// Bounds login attempts: at most ``limit`` per user name and ``addressLimit`` per client
/// address within a sliding ``window``. Checked before the password is, so a brute force costs
/// the service no bcrypt work past the limit. Forgets keys whose attempts are all past the window.
public final class LoginThrottle: Sendable {
    /// Attempts allowed per name within the window.
    public let limit: Int
    /// Attempts allowed per client address within the window.
    public let addressLimit: Int
    /// The window.
    public let window: Duration
    private let attempts = Mutex<[String: [ContinuousClock.Instant]]>([:])

    public init(limit: Int = 5, addressLimit: Int = 20, window: Duration = .seconds(60)) {
        self.limit = limit
        self.addressLimit = addressLimit
        self.window = window
    }

    /// Counts an attempt for `name` from `address`, or — when either is at its limit — counts
    /// nothing and returns how long until the next attempt may come.
    public func admit(name: String, address: String, now: ContinuousClock.Instant = .now) -> Duration? {
        attempts.withLock { attempts in
            let start = now - window
            if attempts.count > 10_000 {
                attempts = attempts.filter { $0.value.last.map { $0 > start } ?? false }
            }
            var waits: [Duration] = []
            let keys = [("name:" + name, limit), ("address:" + address, addressLimit)]
            for (key, limit) in keys {
                let recent = (attempts[key] ?? []).filter { $0 > start }
                attempts[key] = recent
                if recent.count >= limit, let oldest = recent.first { waits.append(oldest + window - now) }
            }
            if let wait = waits.max() { return wait }
            for (key, _) in keys { attempts[key, default: []].append(now) }
            return nil
        }
    }
}
