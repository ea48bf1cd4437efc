import AsyncHTTPClient
import FoundationEssentials
import NIOHTTP1
import Support

/// Asks OpenSky's `GET {base}/api/states/all?lamin=&lomin=&lamax=&lomax=` for the state
/// vectors in a box, once per call, within a timeout.
///
/// Anonymous, or with a bearer token from an `OAuthTokenProvider`. A 200 is decoded (rows
/// that do not decode are skipped and counted by `StateVectorResponse`); everything else
/// becomes an `OpenSkyError` saying what happened, for the caller to retry. The HTTP client
/// it is given must not follow redirects itself (`OpenSkySource` makes one that does not):
/// this client follows them, and only within the API's own origin.
package struct OpenSkyClient: Sendable {
    /// Sent with every request so the API's operators can tell who is asking.
    static let userAgent = "aviator-adsb"

    /// The API's base URL, without a trailing slash, e.g. "https://opensky-network.org".
    package let baseURL: String
    private let exchange: HTTPExchange
    private let tokens: OAuthTokenProvider?
    private let retry: RetryPolicy

    /// A client of the API at `baseURL` through `client`; with `tokens`, authenticated.
    package init(
        baseURL: String, client: HTTPClient, timeout: Duration = .seconds(15),
        tokens: OAuthTokenProvider? = nil, retry: RetryPolicy = RetryPolicy()
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.exchange = HTTPExchange(client: client, timeout: timeout)
        self.tokens = tokens
        self.retry = retry
    }

    /// Whether requests carry a token.
    package var isAuthenticated: Bool { tokens != nil }

    /// The URL asked for `query`: only the rounded box is in it.
    package func url(for query: OpenSkyQuery) -> String {
        "\(baseURL)/api/states/all?\(query.queryString)"
    }

    /// The most redirects followed for one states request.
    static let maximumRedirects = 5

    /// The state vectors in `query`'s box. Throws `OpenSkyError`, or `CancellationError`.
    ///
    /// A redirect is followed only within the API's own scheme, host and port, at most
    /// `maximumRedirects` times; one anywhere else is an `OpenSkyError` of kind `.redirected`
    /// and nothing (least of all the token) is sent there.
    package func states(in query: OpenSkyQuery) async throws -> StateVectorResponse {
        var address = url(for: query)
        var redirects = 0
        var response: HTTPExchange.Response
        while true {
            var request = HTTPClientRequest(url: address)
            request.method = .GET
            request.headers.add(name: "Accept", value: "application/json")
            request.headers.add(name: "User-Agent", value: Self.userAgent)
            if let tokens {
                request.headers.add(name: "Authorization", value: "Bearer \(try await tokens.token())")
            }
            response = try await exchange.perform(request, what: "states request")
            guard (300...399).contains(response.status) else { break }
            guard let target = RedirectTarget(location: response.headers["location"], requestURL: address) else {
                throw OpenSkyError(
                    .redirected, "OpenSky answered HTTP \(response.status) without a usable location",
                    status: response.status)
            }
            guard target.isSameOrigin else {
                throw OpenSkyError(
                    .redirected,
                    "OpenSky answered HTTP \(response.status), a redirect to another server (\(target.printableOrigin)); not followed",
                    status: response.status)
            }
            redirects += 1
            guard redirects <= Self.maximumRedirects else {
                throw OpenSkyError(
                    .redirected, "OpenSky redirected the states request more than \(Self.maximumRedirects) times",
                    status: response.status)
            }
            address = target.url
        }
        switch response.status {
        case 200:
            do {
                return try StateVectorResponse.decode(response.body)
            } catch let error as StateVectorResponse.Malformed {
                throw OpenSkyError(.malformed, "OpenSky answered HTTP 200 with no usable data: \(error)", status: 200)
            }
        case 401, 403:
            await tokens?.invalidate()
            let why =
                tokens == nil ? "anonymous access was refused" : "the access token was refused; fetching a new one"
            throw OpenSkyError(
                .unauthorized, "OpenSky answered HTTP \(response.status): \(why)", status: response.status)
        case 429:
            let header = response.headers["x-rate-limit-retry-after-seconds"] ?? response.headers["retry-after"]
            let wait = retry.retryAfter(header: header)
            let after = wait.map { ", asked to retry after \(HTTPExchange.seconds($0))" } ?? ""
            throw OpenSkyError(
                .rateLimited, "OpenSky rate limit reached (HTTP 429)\(after)", status: 429, retryAfter: wait)
        case 500...599:
            throw OpenSkyError(.serverError, "OpenSky answered HTTP \(response.status)", status: response.status)
        default:
            throw OpenSkyError(.unexpectedStatus, "OpenSky answered HTTP \(response.status)", status: response.status)
        }
    }
}
