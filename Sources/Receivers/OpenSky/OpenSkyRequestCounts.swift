import Synchronization

/// How the OpenSky source's requests ended, counted by outcome: `ok` for an answer with
/// state vectors (an empty sky included), otherwise the kind of failure (`timeout`,
/// `rate_limited`, ...; `other` for an error that is not an `OpenSkyError`). Shared by
/// every copy of the source, and read by the daemon's metrics.
package final class OpenSkyRequestCounts: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Nothing counted.
    package init() {}

    /// Counts one request that ended with `outcome`.
    func count(_ outcome: String) {
        counts.withLock { $0[outcome, default: 0] += 1 }
    }

    /// Counts one request that failed with `error`.
    func count(failure error: any Error) {
        count((error as? OpenSkyError).map { Self.outcome(of: $0.kind) } ?? "other")
    }

    /// The counts so far, by outcome, sorted by name; outcomes that never happened are left out.
    package var snapshot: [(outcome: String, requests: Int)] {
        counts.withLock { $0 }.map { (outcome: $0.key, requests: $0.value) }.sorted { $0.outcome < $1.outcome }
    }

    /// The name of a failure's outcome: the kind in snake case.
    static func outcome(of kind: OpenSkyError.Kind) -> String {
        switch kind {
        case .timeout: "timeout"
        case .connection: "connection"
        case .serverError: "server_error"
        case .rateLimited: "rate_limited"
        case .unauthorized: "unauthorized"
        case .credentialsRejected: "credentials_rejected"
        case .unexpectedStatus: "unexpected_status"
        case .malformed: "malformed"
        case .redirected: "redirected"
        }
    }
}
