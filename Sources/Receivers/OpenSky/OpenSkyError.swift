/// Why a request to OpenSky (the states endpoint or the token endpoint) gave nothing usable.
///
/// Every kind is retried by the source; the kind decides only how long it waits (a 429 says
/// so itself) and what the log line says. Descriptions never contain a token or a secret.
package struct OpenSkyError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kinds of failure.
    package enum Kind: Sendable, Equatable {
        /// No complete answer within the request timeout.
        case timeout
        /// The connection could not be made or broke.
        case connection
        /// HTTP 5xx.
        case serverError
        /// HTTP 429: too many requests, or the day's credits are spent.
        case rateLimited
        /// HTTP 401 or 403 from the states endpoint: the token was not accepted.
        case unauthorized
        /// The token endpoint refused the client credentials.
        case credentialsRejected
        /// Any other HTTP status.
        case unexpectedStatus
        /// HTTP 200 whose body is empty or not the expected JSON.
        case malformed
        /// A redirect that was not followed: any redirect of the token request, or one of
        /// the states request to another scheme, host or port (or too many in a row).
        case redirected
    }

    /// What went wrong.
    package let kind: Kind
    /// The HTTP status, when there was one.
    package let status: Int?
    /// How long the server asked us to wait (429 only).
    package let retryAfter: Duration?
    /// The log line's text.
    package let description: String

    /// An error of `kind` with its log text.
    package init(_ kind: Kind, _ description: String, status: Int? = nil, retryAfter: Duration? = nil) {
        self.kind = kind
        self.description = description
        self.status = status
        self.retryAfter = retryAfter
    }

    /// `text` on one line and at most `limit` characters, for error messages from lower
    /// layers that can be long or span lines.
    static func oneLine(_ text: String, limit: Int = 200) -> String {
        // Other control characters (a terminal's escapes) become "?": the text is the server's.
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "?" : String($0) }
            .joined()
        return flat.count <= limit ? flat : String(flat.prefix(limit)) + "…"
    }
}
