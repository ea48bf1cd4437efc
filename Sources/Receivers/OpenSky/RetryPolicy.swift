import Foundation
import Tracking

/// How long to wait before asking OpenSky again after a failed request.
///
/// Exponential backoff with jitter, capped: after the n-th consecutive failure the wait is
/// `initial · 2^(n−1)`, at most `maximum`, multiplied by a random factor in [0.5, 1] so that
/// many receivers that lost the API at the same moment do not all come back at the same
/// moment. A 429 answer says when to come back (`X-Rate-Limit-Retry-After-Seconds`), and that
/// wins over the backoff.
public struct RetryPolicy: Sendable, Equatable {
    /// The wait after the first failure, before jitter.
    public var initial: Duration
    /// The longest wait, before jitter.
    public var maximum: Duration
    /// The longest wait a server's retry-after header is allowed to impose: OpenSky asks for
    /// hours when a daily quota is spent, and that is honoured, but an absurd value (years)
    /// is not.
    public var maximumRetryAfter: Duration

    /// A policy; the defaults are 2 s doubling to 2 min.
    public init(initial: Duration = .seconds(2), maximum: Duration = .seconds(120),
                maximumRetryAfter: Duration = .seconds(86_400)) {
        self.initial = initial
        self.maximum = max(maximum, initial)
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// The wait before the next attempt after `failures` consecutive failures (1 or more).
    public func delay(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(failures, 1) - 1, 30)  // 2^30 · anything sane is past the cap
        let base = min(initial * (1 << exponent), maximum)
        return base * Double.random(in: 0.5...1, using: &generator)
    }

    /// The wait before the next attempt after `failures` consecutive failures (1 or more).
    public func delay(afterFailures failures: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterFailures: failures, using: &generator)
    }

    /// The wait a `X-Rate-Limit-Retry-After-Seconds` (or `Retry-After`) header value asks
    /// for, capped at `maximumRetryAfter`; nil when the value is missing or not a
    /// non-negative number of seconds.
    public func retryAfter(header value: String?) -> Duration? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), let seconds = Double(text),
              seconds.isFinite, seconds >= 0 else { return nil }
        let cap = maximumRetryAfter.inSeconds
        return .milliseconds(Int64((min(seconds, cap) * 1000).rounded()))
    }
}
