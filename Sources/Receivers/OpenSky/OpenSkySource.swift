import AsyncHTTPClient
import FoundationEssentials
import Logging
import ModeS
import NIOCore
import NIOPosix
import Pipeline
import Support

/// The fallback source: polls the OpenSky Network for the aircraft in a box around the
/// receiver and feeds their state vectors to the pipeline, while the dongle is away.
///
/// It never gives up: timeouts, connection errors, 5xx, 200 with no usable data, refused
/// redirects and anything else are retried with exponential backoff and jitter, and a 429
/// waits as long as the API says, within [poll interval, 1 h]. Each problem is one log line; the first data after a problem is one line too.
/// `run` returns only when its task is cancelled. Without a receiver position there is no
/// box to ask for: it says so once and stays idle.
package struct OpenSkySource: Source {
    /// What to ask, where, and how often.
    package struct Configuration: Sendable {
        /// The API's base URL; tests point it at a local server.
        package var baseURL = "https://opensky-network.org"
        /// The OAuth2 token endpoint used with credentials.
        package var tokenURL =
            "https://auth.opensky-network.org/auth/realms/opensky-network/protocol/openid-connect/token"
        /// The receiver's position (rounded to 0.1° before use); nil leaves the source idle.
        package var receiver: GeoPoint?
        /// Half the box's height in degrees of latitude.
        package var latitudeHalfSpan = OpenSkyQuery.defaultLatitudeHalfSpan
        /// Half the box's width in degrees of longitude.
        package var longitudeHalfSpan = OpenSkyQuery.defaultLongitudeHalfSpan
        /// Time between polls; nil for the default of the access mode.
        package var interval: Duration?
        /// Client credentials; nil for anonymous access.
        package var credentials: OAuthTokenProvider.Credentials?
        /// Limit for one request, from connecting to the end of the body.
        package var requestTimeout = Duration.seconds(15)
        /// Waits after failures.
        package var retry = RetryPolicy()

        /// The default configuration: anonymous, the public API, no receiver yet.
        package init() {}
    }

    /// Anonymous users get a new picture every 10 s; polling faster only spends credits.
    package static let anonymousInterval = Duration.seconds(10)
    /// Authenticated users get 5 s resolution.
    package static let authenticatedInterval = Duration.seconds(5)
    /// The shortest interval allowed: OpenSky's best time resolution.
    package static let minimumInterval = Duration.seconds(5)

    /// "opensky", the radar's source name while this source runs.
    package let name = "opensky"
    /// The configuration as given.
    package let configuration: Configuration
    /// The time between successful polls, after defaults and the floor.
    package let pollInterval: Duration
    /// How the requests so far ended, by outcome.
    package let requests = OpenSkyRequestCounts()
    private let requestedBelowFloor: Bool
    private let floor: Duration
    private let logger: Logger

    /// A source with `configuration`, logging to `logger`.
    package init(configuration: Configuration, logger: Logger) {
        self.init(configuration: configuration, logger: logger, minimumInterval: Self.minimumInterval)
    }

    /// A source whose interval floor is `minimumInterval` (tests poll in milliseconds).
    init(configuration: Configuration, logger: Logger, minimumInterval: Duration) {
        self.configuration = configuration
        self.logger = logger
        floor = minimumInterval
        let requested =
            configuration.interval
            ?? (configuration.credentials == nil ? Self.anonymousInterval : Self.authenticatedInterval)
        requestedBelowFloor = requested < minimumInterval
        pollInterval = max(requested, minimumInterval)
    }

    /// Polls until cancelled, feeding `sink`. Returns (never throws) when cancelled.
    package func run(into sink: any FrameSink) async throws {
        guard let receiver = configuration.receiver else {
            logger.warning(
                "OpenSky fallback idle: no receiver position to ask around; start with --receiver LAT,LON to use it")
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(3600)) } catch { return }
            }
            return
        }
        let query = OpenSkyQuery(
            receiver: receiver, latitudeHalfSpan: configuration.latitudeHalfSpan,
            longitudeHalfSpan: configuration.longitudeHalfSpan)
        var httpConfiguration = HTTPClient.Configuration()
        httpConfiguration.timeout = .init(connect: .seconds(10), read: nil)
        // A connection that cannot be made fails the request at once, with its cause, and the
        // source's own backoff decides when to try again (the client would otherwise retry
        // quietly until the request's deadline and report only a timeout).
        httpConfiguration.connectionPool.retryConnectionEstablishment = false
        // Redirects are never followed by the HTTP client: the token request must not carry
        // the client secret anywhere else, and `OpenSkyClient` follows the states request's
        // redirects itself, within the API's own scheme, host and port.
        httpConfiguration.redirectConfiguration = .disallow
        let http = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: httpConfiguration)
        let tokens = configuration.credentials.map {
            OAuthTokenProvider(
                tokenURL: configuration.tokenURL, credentials: $0, client: http,
                timeout: configuration.requestTimeout)
        }
        let client = OpenSkyClient(
            baseURL: configuration.baseURL, client: http,
            timeout: configuration.requestTimeout, tokens: tokens, retry: configuration.retry)
        logger.notice("\(startLine(client: client, query: query))")
        await poll(client, query: query, into: sink)
        try? await http.shutdown()
    }

    /// The loop; returns when cancelled.
    private func poll(_ client: OpenSkyClient, query: OpenSkyQuery, into sink: any FrameSink) async {
        var failures = 0
        var reportNext = true  // say how many aircraft came on the first success and after a problem
        while !Task.isCancelled {
            let wait: Duration
            do {
                let response = try await client.states(in: query)
                requests.count("ok")
                let now = Date().timeIntervalSince1970
                var fed = 0
                for vector in response.states {
                    guard let report = vector.report(now: now) else { continue }
                    sink.accept(report)
                    fed += 1
                }
                if response.skippedRows > 0 {
                    logger.warning(
                        "OpenSky: skipped \(response.skippedRows) malformed state vector(s) of \(response.skippedRows + response.states.count); first: \(OpenSkyError.oneLine(response.firstSkipReason ?? "?"))"
                    )
                }
                let count = fed == 0 ? "no aircraft (empty sky)" : "\(fed) aircraft"
                if failures > 0 {
                    logger.notice("OpenSky is answering again after \(failures) failed request(s): \(count) in the box")
                } else if reportNext {
                    logger.info("OpenSky: \(count) in the box")
                } else {
                    logger.debug("OpenSky: \(count) in the box")
                }
                failures = 0
                reportNext = false
                wait = pollInterval
            } catch let error as OpenSkyError {
                requests.count(failure: error)
                failures += 1
                let backoff = configuration.retry.delay(afterFailures: failures)
                wait = error.kind == .rateLimited ? rateLimitWait(error.retryAfter, backoff: backoff) : backoff
                logger.warning("\(error); retrying in \(HTTPExchange.seconds(wait)) (failure \(failures) in a row)")
            } catch {
                if Task.isCancelled { return }
                requests.count(failure: error)
                failures += 1
                wait = configuration.retry.delay(afterFailures: failures)
                logger.warning(
                    "OpenSky request failed: \(OpenSkyError.oneLine(String(describing: error))); retrying in \(HTTPExchange.seconds(wait))"
                )
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    /// How long to wait after a 429: what the server asked for (or the backoff when it did
    /// not say), but never less than the poll interval, so a "0" or a date in the past cannot
    /// make the source ask faster than it does when all is well, and never more than the
    /// policy's `maximumRetryAfter`.
    func rateLimitWait(_ asked: Duration?, backoff: Duration) -> Duration {
        let ceiling = max(configuration.retry.maximumRetryAfter, pollInterval)
        return min(max(asked ?? backoff, pollInterval), ceiling)
    }

    private func startLine(client: OpenSkyClient, query: OpenSkyQuery) -> String {
        let access = client.isAuthenticated ? "authenticated as \(configuration.credentials!)" : "anonymous"
        let floorNote =
            requestedBelowFloor
            ? " (the requested interval is below the \(HTTPExchange.seconds(floor)) floor)" : ""
        return "OpenSky fallback: polling \(client.baseURL) every \(HTTPExchange.seconds(pollInterval))\(floorNote), "
            + "\(access), for the box lat \(OpenSkyQuery.format(query.latitudeMin))…\(OpenSkyQuery.format(query.latitudeMax)), "
            + "lon \(OpenSkyQuery.format(query.longitudeMin))…\(OpenSkyQuery.format(query.longitudeMax)) "
            + "around the receiver rounded to 0.1°"
    }
}
