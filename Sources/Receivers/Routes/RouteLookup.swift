import AsyncHTTPClient
import FoundationEssentials
import Identity
import Logging
import ModeS
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The flight-route service: looks up the origin and destination of the callsigns in view
/// at an adsbdb-compatible route service and publishes what it knows.
///
/// Every `interval` it takes the callsigns currently seen, asks the `RouteCache` which are due
/// and fetches those, at most `maximumInFlight` at once, each with `GET
/// {base}/callsign/{CALLSIGN}` and nothing else: the callsign is all that leaves the machine
/// (the request carries only a `User-Agent: aviator-adsb` and an `Accept` header). Each
/// request has `timeout` for everything, from connecting to the last byte; redirects are not
/// followed; bodies past `RouteResponse.maximumBodyBytes` are refused. Answers are kept a day,
/// failures are retried with a growing backoff, and nothing waits on a lookup: a slow or
/// dead service only leaves routes missing.
///
/// After each tick and each answer it publishes, when it changed, the map from each seen
/// callsign (as the caller spelled it) to its route; a callsign without a known route is
/// absent. Counters say how many requests were made and how they ended; failures are logged
/// one line per kind at most every `logInterval`, naming the callsign and nothing else.
package final class RouteLookup: Sendable {
    /// Where the service is and how hard to use it.
    package struct Configuration: Sendable {
        /// The service's base URL, http or https, without a trailing slash.
        package let baseURL: String
        /// The service's host, as the log names it.
        package let host: String
        /// How often the seen callsigns are read: 5 s.
        package var interval: Duration = .seconds(5)
        /// The limit for one request, connection to last byte: 10 s.
        package var timeout: Duration = .seconds(10)
        /// Freshness, backoff, size and concurrency (2 requests at once).
        package var limits = RouteCache.Limits()
        /// The shortest time between two log lines about failures of one kind: 1 min.
        package var logInterval: Duration = .seconds(60)

        /// A configuration for the service at `baseURL`; throws unless it is an http or
        /// https URL with a host, without a query, a fragment or credentials.
        package init(baseURL: String) throws(RouteError) {
            let trimmed = String(baseURL.trimmingWhitespace())
            guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            else {
                throw RouteError(.configuration, "route service URL must start with http:// or https://")
            }
            guard let host = url.host, !host.isEmpty else {
                throw RouteError(.configuration, "route service URL has no host")
            }
            guard url.query == nil, url.fragment == nil else {
                throw RouteError(.configuration, "route service URL must not have a query or fragment")
            }
            guard url.user == nil, url.password == nil else {
                throw RouteError(.configuration, "route service URL must not carry a user name or password")
            }
            var base = trimmed
            while base.hasSuffix("/") { base.removeLast() }
            self.baseURL = base
            self.host = host
        }

        /// The URL of the lookup for a normalised `callsign` (letters and digits only, so
        /// nothing needs escaping).
        package func url(for callsign: String) -> String {
            baseURL + "/callsign/" + callsign
        }
    }

    /// How many lookups were made and how they ended.
    package struct Statistics: Sendable, Equatable {
        /// Requests sent.
        package var requests = 0
        /// Answers with a route.
        package var found = 0
        /// Answers that the callsign is unknown.
        package var unknown = 0
        /// Requests that failed (no answer, a bad status or a malformed body).
        package var failed = 0

        /// No lookups yet.
        package init() {}
    }

    /// How long after a request's time limit the backstop timer gives up on it.
    static let backstopGrace = Duration.milliseconds(500)

    /// The settings.
    package let configuration: Configuration
    private let callsigns: @Sendable () async -> [String]
    private let publish: @Sendable ([String: FlightRoute]) async -> Void
    private let logger: Logger
    private let generator: Mutex<any RandomNumberGenerator>
    private let counters = Mutex(Statistics())

    /// A service for `configuration`, reading the seen callsigns from `callsigns` and handing
    /// the routes to `publish`; `generator` draws the backoff's jitter.
    package init(
        configuration: Configuration,
        callsigns: @escaping @Sendable () async -> [String],
        publish: @escaping @Sendable ([String: FlightRoute]) async -> Void,
        logger: Logger,
        generator: sending any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.callsigns = callsigns
        self.publish = publish
        self.logger = logger
        self.generator = Mutex(generator)
    }

    /// The counters so far.
    package var statistics: Statistics { counters.withLock { $0 } }

    /// What one step of the loop reacts to.
    private enum Event: Sendable {
        /// Time to read the seen callsigns again.
        case tick
        /// A lookup ended.
        case answer(String, Result<RouteResponse, RouteError>)
        /// A lookup was cancelled before it ended.
        case abandoned(String)
    }

    /// Runs the lookups until the task is cancelled.
    package func run() async {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(
                    connect: Self.timeAmount(configuration.timeout), read: Self.timeAmount(configuration.timeout))))
        logger.info("looking up flight routes at \(configuration.host)")
        await withTaskGroup(of: Event.self) { group in
            var cache = RouteCache(limits: configuration.limits)
            var throttles: [RouteError.Kind: LogThrottle] = [:]
            var seen: [String] = []
            var published: [String: FlightRoute]?
            group.addTask { .tick }
            while let event = await group.next() {
                guard !Task.isCancelled else {
                    group.cancelAll()
                    continue
                }
                let now = ContinuousClock.now
                switch event {
                case .tick:
                    seen = await callsigns()
                    let interval = configuration.interval
                    group.addTask {
                        try? await Task.sleep(for: interval)
                        return .tick
                    }
                case .answer(let callsign, .success(let response)):
                    cache.record(callsign, response, now: now)
                    counters.withLock {
                        if case .route = response { $0.found += 1 } else { $0.unknown += 1 }
                    }
                case .answer(let callsign, .failure(let error)):
                    generator.withLock { generator in cache.recordFailure(callsign, now: now, using: &generator) }
                    counters.withLock { $0.failed += 1 }
                    if let count = throttles[error.kind, default: LogThrottle(interval: configuration.logInterval)]
                        .record(now: now)
                    {
                        let more = count > 1 ? " (\(count) failures of this kind since the last report)" : ""
                        logger.warning("route lookup for \(callsign) failed: \(error.message)\(more)")
                    }
                case .abandoned(let callsign):
                    cache.abandon(callsign)
                }
                for callsign in cache.due(callsigns: seen, now: now) {
                    counters.withLock { $0.requests += 1 }
                    group.addTask { await self.lookUp(callsign, client: client) }
                }
                let routes = cache.routes(for: seen, now: now)
                if routes != published {
                    published = routes
                    await publish(routes)
                }
            }
        }
        try? await client.shutdown()
    }

    /// One lookup, as the loop's event.
    private func lookUp(_ callsign: String, client: HTTPClient) async -> Event {
        var request = HTTPClientRequest(url: configuration.url(for: callsign))
        request.headers.add(name: "User-Agent", value: "aviator-adsb")
        request.headers.add(name: "Accept", value: "application/json")
        let timeout = configuration.timeout
        let prepared = request
        do {
            let (status, body) = try await withThrowingTaskGroup(of: (Int, ByteBuffer)?.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, timeout: Self.timeAmount(timeout))
                    return (
                        Int(response.status.code), try await response.body.collect(upTo: RouteResponse.maximumBodyBytes)
                    )
                }
                group.addTask {
                    // The client's own deadline comes first and says why (a refused connection
                    // it kept retrying, say); this is the backstop for a body that trickles.
                    try await Task.sleep(for: timeout + Self.backstopGrace)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else {
                    throw RouteError(.timeout, "no answer within \(Self.seconds(timeout))")
                }
                return answer
            }
            do throws(RouteError) {
                return .answer(
                    callsign,
                    .success(
                        try RouteResponse.parse(
                            status: status, body: body.readableBytesView,
                            callsign: callsign)))
            } catch {
                return .answer(callsign, .failure(error))
            }
        } catch {
            if Task.isCancelled { return .abandoned(callsign) }
            return .answer(callsign, .failure(Self.routeError(error, timeout: timeout)))
        }
    }

    /// The route error for a failure of the exchange.
    static func routeError(_ error: any Error, timeout: Duration) -> RouteError {
        switch error {
        case let error as RouteError:
            return error
        case is NIOTooManyBytesError:
            return RouteError(.tooLarge, "answer over the limit of \(RouteResponse.maximumBodyBytes) bytes")
        case let error as HTTPClientError
        where [
            .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout,
            .tlsHandshakeTimeout, .getConnectionFromPoolTimeout
        ].contains(error):
            return RouteError(.timeout, "no answer within \(seconds(timeout))")
        case let error as IOError:
            return RouteError(.connection, "connection failed: \(String(cString: strerror(error.errnoCode)))")
        default:
            let text = String(describing: error)
            return RouteError(.connection, "connection failed: \(text.prefix(120))")
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Runs as one of the daemon's lifecycle services; it stops when cancelled.
extension RouteLookup: Service {}
