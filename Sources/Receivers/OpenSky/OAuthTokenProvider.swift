import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import Support

/// Access tokens for OpenSky's authenticated API, by the OAuth2 client-credentials grant.
///
/// The token is fetched with a form-encoded POST to the token URL, cached, and fetched again
/// `refreshMargin` before it expires (or at half its lifetime, for tokens shorter than twice
/// the margin), so a request never goes out with a token about to lapse. `invalidate()`
/// drops it when the API refuses it. A redirect is an error, never followed, so the secret
/// reaches only the configured URL (the HTTP client it is given must not follow redirects
/// itself: `OpenSkySource` makes one that does not). Neither the secret nor the token appears in any error
/// text or log line. An actor: the cache is shared state.
package actor OAuthTokenProvider {
    /// An OpenSky API client's id and secret.
    package struct Credentials: Sendable, Equatable, CustomStringConvertible {
        /// The client id.
        package let clientID: String
        /// The client secret; never printed.
        package let clientSecret: String

        /// Credentials from their parts.
        package init(clientID: String, clientSecret: String) {
            self.clientID = clientID
            self.clientSecret = clientSecret
        }

        /// Credentials from `OPENSKY_CLIENT_ID` and `OPENSKY_CLIENT_SECRET`: nil when neither
        /// is set; an error when only one is, or one is empty.
        package static func fromEnvironment(_ environment: [String: String]) throws -> Credentials? {
            let id = environment["OPENSKY_CLIENT_ID"]
            let secret = environment["OPENSKY_CLIENT_SECRET"]
            switch (id, secret) {
            case (nil, nil):
                return nil
            case (let id?, let secret?) where !id.isEmpty && !secret.isEmpty:
                return Credentials(clientID: id, clientSecret: secret)
            default:
                throw OpenSkyError(
                    .credentialsRejected,
                    "OPENSKY_CLIENT_ID and OPENSKY_CLIENT_SECRET must both be set (and not empty), or neither")
            }
        }

        /// The id only: the secret stays hidden even when the value is printed.
        package var description: String { "OpenSky client \(clientID) (secret hidden)" }
    }

    private struct Token {
        var value: String
        var refreshAt: ContinuousClock.Instant
    }

    private let tokenURL: String
    private let credentials: Credentials
    private let exchange: HTTPExchange
    private let refreshMargin: Duration
    private var cached: Token?
    /// Tokens fetched so far.
    package private(set) var fetches = 0

    /// A provider asking `tokenURL` with `credentials` through `client`.
    package init(
        tokenURL: String, credentials: Credentials, client: HTTPClient,
        timeout: Duration = .seconds(15), refreshMargin: Duration = .seconds(60)
    ) {
        self.tokenURL = tokenURL
        self.credentials = credentials
        self.exchange = HTTPExchange(client: client, timeout: timeout)
        self.refreshMargin = refreshMargin
    }

    /// A valid access token: the cached one, or a new one when it is missing or due for
    /// refresh. Throws `OpenSkyError` when the token endpoint fails.
    package func token() async throws -> String {
        let now = ContinuousClock.now
        if let cached, now < cached.refreshAt { return cached.value }
        let token = try await fetch()
        cached = token
        return token.value
    }

    /// Forgets the cached token (the API refused it); the next call fetches a new one.
    package func invalidate() {
        cached = nil
    }

    private func fetch() async throws -> Token {
        var request = HTTPClientRequest(url: tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: OpenSkyClient.userAgent)
        let form = Self.formEncoded([
            ("grant_type", "client_credentials"),
            ("client_id", credentials.clientID),
            ("client_secret", credentials.clientSecret)
        ])
        request.body = .bytes(ByteBuffer(string: form))
        let started = ContinuousClock.now
        let response = try await exchange.perform(request, what: "token request")
        switch response.status {
        case 200:
            break
        case 400, 401, 403:
            throw OpenSkyError(
                .credentialsRejected,
                "OpenSky token endpoint refused the client credentials (HTTP \(response.status)): check OPENSKY_CLIENT_ID and OPENSKY_CLIENT_SECRET",
                status: response.status)
        case 300...399:
            // The secret is in the body: it goes to the configured endpoint and nowhere else.
            let target = RedirectTarget(location: response.headers["location"], requestURL: tokenURL)
            let whereTo = target.map { " to \($0.printableOrigin)" } ?? ""
            throw OpenSkyError(
                .redirected,
                "OpenSky token endpoint answered HTTP \(response.status) (a redirect\(whereTo)); not followed, so the client secret goes nowhere else: check the token URL",
                status: response.status)
        case 429:
            let wait = RetryPolicy().retryAfter(
                header: response.headers["x-rate-limit-retry-after-seconds"]
                    ?? response.headers["retry-after"])
            throw OpenSkyError(
                .rateLimited, "OpenSky token endpoint answered HTTP 429 (too many requests)",
                status: 429, retryAfter: wait)
        case 500...599:
            throw OpenSkyError(
                .serverError, "OpenSky token endpoint answered HTTP \(response.status)", status: response.status)
        default:
            throw OpenSkyError(
                .unexpectedStatus, "OpenSky token endpoint answered HTTP \(response.status)", status: response.status)
        }
        // The body is parsed but never echoed: it holds the token.
        guard let reply = try? JSONDecoder().decode(TokenReply.self, from: response.body),
            Self.isUsableToken(reply.accessToken)
        else {
            throw OpenSkyError(.malformed, "OpenSky token endpoint sent no usable token (\(response.body.count) bytes)")
        }
        fetches += 1
        // Without a lifetime, assume a short one rather than keeping a token forever; and
        // keep none longer than a day, whatever the endpoint says (OpenSky's last 30 min).
        let lifetime = Duration.milliseconds(Int64(min(max(reply.expiresIn ?? 300, 0), 86_400) * 1000))
        return Token(
            value: reply.accessToken, refreshAt: started + Self.refreshDelay(lifetime: lifetime, margin: refreshMargin))
    }

    /// Whether `token` can go into an `Authorization: Bearer` header: 1 to 8192 characters of
    /// the bearer token alphabet (RFC 6750: letters, digits, `-._~+/`, then `=` padding).
    /// Anything else would be refused by the HTTP client or the server at every request.
    static func isUsableToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard (1...8192).contains(bytes.count) else { return false }
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        guard !body.isEmpty, bytes.dropFirst(body.count).allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        return body.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }

    /// How long after it was asked for a token of `lifetime` is replaced: `margin` before it
    /// ends, or at half its life when that comes later (short-lived tokens), so it is never
    /// used up to its last second and never fetched again at every request.
    static func refreshDelay(lifetime: Duration, margin: Duration) -> Duration {
        max(lifetime - margin, lifetime / 2)
    }

    /// `pairs` as an `application/x-www-form-urlencoded` body.
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        // Unreserved characters (RFC 3986) pass as they are; every other byte of the UTF-8 is
        // %-escaped, which is always valid in a form body.
        func escape(_ text: String) -> String {
            var escaped = ""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    escaped.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    let hex = String(byte, radix: 16, uppercase: true)
                    escaped += "%" + (hex.count < 2 ? "0" : "") + hex
                }
            }
            return escaped
        }
        return pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    private struct TokenReply: Decodable {
        var accessToken: String
        var expiresIn: Double?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }
}
