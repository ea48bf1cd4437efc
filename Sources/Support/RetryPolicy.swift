import FoundationEssentials

/// How long to wait before asking OpenSky again after a failed request.
///
/// Exponential backoff with jitter, capped: after the n-th consecutive failure the wait is
/// `initial · 2^(n−1)`, at most `maximum`, multiplied by a random factor in [0.5, 1] so that
/// many receivers that lost the API at the same moment do not all come back at the same
/// moment. A 429 answer says when to come back (`X-Rate-Limit-Retry-After-Seconds`, or
/// `Retry-After` in seconds or as an HTTP date), and that wins over the backoff, within
/// bounds the source sets: never sooner than its poll interval, never later than
/// `maximumRetryAfter`.
package struct RetryPolicy: Sendable, Equatable {
    /// The wait after the first failure, before jitter.
    package var initial: Duration
    /// The longest wait, before jitter.
    package var maximum: Duration
    /// The longest wait a server's retry-after header is allowed to impose: an hour by
    /// default. OpenSky asks for many hours when a daily quota is spent; asking again after
    /// an hour costs one more refused request, while a wrong or hostile header cannot keep
    /// the fallback silent for a day.
    package var maximumRetryAfter: Duration

    /// A policy; the defaults are 2 s doubling to 2 min, and retry-after headers up to 1 h.
    package init(
        initial: Duration = .seconds(2), maximum: Duration = .seconds(120),
        maximumRetryAfter: Duration = .seconds(3600)
    ) {
        self.initial = initial
        self.maximum = max(maximum, initial)
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// The wait before the next attempt after `failures` consecutive failures (1 or more).
    package func delay(afterFailures failures: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(failures, 1) - 1, 30)  // 2^30 · anything sane is past the cap
        let base = min(initial * (1 << exponent), maximum)
        return base * Double.random(in: 0.5...1, using: &generator)
    }

    /// The wait before the next attempt after `failures` consecutive failures (1 or more).
    package func delay(afterFailures failures: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterFailures: failures, using: &generator)
    }

    /// The wait a `X-Rate-Limit-Retry-After-Seconds` (or `Retry-After`) header value asks
    /// for at `now`, capped at `maximumRetryAfter`: a non-negative number of seconds, or an
    /// HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), a date already past meaning zero. Nil
    /// when the value is missing or neither.
    package func retryAfter(header value: String?, now: Date = Date()) -> Duration? {
        guard let text = value.map({ String($0.trimmingWhitespace()) }) else { return nil }
        let seconds: Double
        if let number = Double(text) {
            guard number.isFinite, number >= 0 else { return nil }
            seconds = number
        } else if let date = Self.httpDate(text) {
            seconds = max(0, date.timeIntervalSince(now))
        } else {
            return nil
        }
        let cap = maximumRetryAfter.inSeconds
        return .milliseconds(Int64((min(seconds, cap) * 1000).rounded()))
    }

    /// The date of an HTTP date in its preferred form (RFC 9110, IMF-fixdate); nil for
    /// anything else.
    package static func httpDate(_ text: String) -> Date? {
        HTTPDate.parse(text)
    }
}
