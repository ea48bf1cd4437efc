import AsyncHTTPClient
import Foundation

/// Asks OpenSky's `GET {base}/api/states/all?lamin=&lomin=&lamax=&lomax=` for the state
/// vectors in a box, once per call, within a timeout.
///
/// Anonymous, or with a bearer token from an `OAuthTokenProvider`. A 200 is decoded (rows
/// that do not decode are skipped and counted by `StateVectorResponse`); everything else
/// becomes an `OpenSkyError` saying what happened, for the caller to retry.
public struct OpenSkyClient: Sendable {
    /// Sent with every request so the API's operators can tell who is asking.
    static let userAgent = "aviator-adsb"

    /// The API's base URL, without a trailing slash, e.g. "https://opensky-network.org".
    public let baseURL: String
    private let exchange: HTTPExchange
    private let tokens: OAuthTokenProvider?
    private let retry: RetryPolicy

    /// A client of the API at `baseURL` through `client`; with `tokens`, authenticated.
    public init(baseURL: String, client: HTTPClient, timeout: Duration = .seconds(15),
                tokens: OAuthTokenProvider? = nil, retry: RetryPolicy = RetryPolicy()) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.exchange = HTTPExchange(client: client, timeout: timeout)
        self.tokens = tokens
        self.retry = retry
    }

    /// Whether requests carry a token.
    public var isAuthenticated: Bool { tokens != nil }

    /// The URL asked for `query`: only the rounded box is in it.
    public func url(for query: OpenSkyQuery) -> String {
        "\(baseURL)/api/states/all?\(query.queryString)"
    }

    /// The state vectors in `query`'s box. Throws `OpenSkyError`, or `CancellationError`.
    public func states(in query: OpenSkyQuery) async throws -> StateVectorResponse {
        var request = HTTPClientRequest(url: url(for: query))
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: Self.userAgent)
        if let tokens {
            request.headers.add(name: "Authorization", value: "Bearer \(try await tokens.token())")
        }
        let response = try await exchange.perform(request, what: "states request")
        switch response.status {
        case 200:
            do {
                return try StateVectorResponse.decode(response.body)
            } catch let error as StateVectorResponse.Malformed {
                throw OpenSkyError(.malformed, "OpenSky answered HTTP 200 with no usable data: \(error)", status: 200)
            }
        case 401, 403:
            await tokens?.invalidate()
            let why = tokens == nil ? "anonymous access was refused" : "the access token was refused; fetching a new one"
            throw OpenSkyError(.unauthorized, "OpenSky answered HTTP \(response.status): \(why)", status: response.status)
        case 429:
            let header = response.headers["x-rate-limit-retry-after-seconds"] ?? response.headers["retry-after"]
            let wait = retry.retryAfter(header: header)
            let after = wait.map { ", asked to retry after \(HTTPExchange.seconds($0))" } ?? ""
            throw OpenSkyError(.rateLimited, "OpenSky rate limit reached (HTTP 429)\(after)", status: 429, retryAfter: wait)
        case 500...599:
            throw OpenSkyError(.serverError, "OpenSky answered HTTP \(response.status)", status: response.status)
        default:
            throw OpenSkyError(.unexpectedStatus, "OpenSky answered HTTP \(response.status)", status: response.status)
        }
    }
}
