import Dispatch
import FeedProtocol
import FoundationEssentials
import History
import SkyProjection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The history's endpoints under `/data`: `outline.json` (readsb's range outline) and
/// `/data/history/tracks`, `trace`, `sky`, `chart`, `coverage` and `diary` (docs/web.md). Every
/// query parameter goes through `HistoryQuery` (known names, digits and hex only, bounded
/// ranges and limits) before a bound SQL parameter sees it.
struct HistoryEndpoint: Sendable {
    /// What one request gets.
    enum Answer: Equatable, Sendable {
        /// 200 with this JSON.
        case json(String)
        /// 400: the query was refused, for this reason.
        case badRequest(String)
        /// 503: the store cannot be read now.
        case unavailable(String)
    }

    /// Longest time range of `tracks`, seconds.
    static let maxTracksSpan = 6 * 3600.0
    /// Most positions one answer carries.
    static let maxPositions = 100_000
    /// Most aircraft one rewound frame (`sky`) carries.
    static let maxSkyAircraft = 2_000
    /// What `sky` is asked with: the moment, the observer and the feed's view filters.
    static let skyParameters: Set<String> = [
        "at", "lat", "lon", "alt_m", "range_km", "min_alt_ft", "max_alt_ft", "max_distance_km", "hide_on_ground",
        "limit"
    ]

    let reader: HistoryReader
    let clock: @Sendable () -> Double

    /// Whether `path` is one of the history's.
    static func handles(_ path: String) -> Bool {
        path == "/data/outline.json" || path.hasPrefix("/data/history/")
    }

    /// The queue the store is read on: SQLite's calls block, so they run here, one request
    /// at a time, and never on the threads the server's asynchronous code shares.
    private static let queue = DispatchQueue(label: "aviator-adsb.history-reads")

    /// `answer(path:query:)`, worked out on the history's own queue.
    func answerAway(path: String, query: String?) async -> Answer {
        await withCheckedContinuation { (done: CheckedContinuation<Answer, Never>) in
            Self.queue.async { done.resume(returning: answer(path: path, query: query)) }
        }
    }

    /// The answer for `path` with `query` (the part after `?`).
    func answer(path: String, query: String?) -> Answer {
        let now = clock()
        do {
            switch path {
            case "/data/outline.json":
                _ = try HistoryQuery.parse(query, allowed: [])
                return .json(try reader.outlineJSON(now: now))
            case "/data/history/tracks":
                let q = try HistoryQuery.parse(query, allowed: ["from", "to", "limit"])
                let range = try q.range(now: now, defaultSpan: 600, maxSpan: Self.maxTracksSpan)
                return .json(try reader.tracks(in: range, limit: try q.limit(default: 20_000, max: Self.maxPositions)))
            case "/data/history/trace":
                let q = try HistoryQuery.parse(query, allowed: ["hex", "from", "to", "limit"])
                guard let address = q.address else { return .badRequest("trace needs hex=ADDRESS") }
                let range = try q.range(now: now, defaultSpan: 86_400, maxSpan: 8 * 86_400)
                let limit = try q.limit(default: 20_000, max: Self.maxPositions)
                return .json(try reader.trace(address: address, in: range, limit: limit))
            case "/data/history/sky":
                let q = try HistoryQuery.parse(query, allowed: Self.skyParameters)
                return try sky(q)
            case "/data/history/chart":
                let q = try HistoryQuery.parse(query, allowed: ["period"])
                return .json(try reader.chart(period: q.period ?? .day, now: now))
            case "/data/history/coverage":
                let q = try HistoryQuery.parse(query, allowed: ["period"])
                return .json(try reader.coverageJSON(period: q.period ?? .day, now: now))
            case "/data/history/diary":
                let q = try HistoryQuery.parse(query, allowed: ["from", "to"])
                let range = try diaryRange(q, now: now)
                return .json(try reader.diaryJSON(in: range))
            default:
                return .badRequest("unknown history endpoint: tracks, trace, sky, chart, coverage or diary")
            }
        } catch let error as HistoryQueryError {
            return .badRequest(error.message)
        } catch {
            return .unavailable("history is not available: \(error)")
        }
    }

    /// The sky at `at` as a feed frame, seen from `lat`, `lon` (and `alt_m`) or else the
    /// receiver, through the feed's view filters (`range_km`, 50 by default, `min_alt_ft`,
    /// `max_alt_ft`, `max_distance_km`, `hide_on_ground`).
    private func sky(_ query: HistoryQuery) throws -> Answer {
        guard let at = query.at else { return .badRequest("sky needs at=SECONDS") }
        let observer: FeedPosition?
        switch (query.latitude, query.longitude) {
        case (let latitude?, let longitude?):
            observer = FeedPosition(latitude: latitude, longitude: longitude, altitudeMetres: query.altitudeM ?? 0)
        case (nil, nil): observer = reader.receiver.map { FeedPosition($0) }
        default: return .badRequest("lat and lon go together")
        }
        let view = RadarView(
            rangeKm: query.rangeKm ?? RadarView().rangeKm, minAltitudeFt: query.minAltitudeFt,
            maxAltitudeFt: query.maxAltitudeFt, maxDistanceKm: query.maxDistanceKm,
            hideOnGround: query.hideOnGround ?? false, observer: observer)
        if let problem = view.problem { return .badRequest(problem) }
        let limit = try query.limit(default: Self.maxSkyAircraft, max: Self.maxSkyAircraft)
        return .json(HistorySky.frameLine(try reader.sky(at: at, limit: limit), at: at, view: view))
    }

    /// The diary's range: as asked (at most two days), else today so far, from local midnight.
    private func diaryRange(_ query: HistoryQuery, now: Double) throws(HistoryQueryError) -> ClosedRange<Double> {
        if query.from != nil || query.to != nil {
            return try query.range(now: now, defaultSpan: 86_400, maxSpan: 2 * 86_400)
        }
        return Self.localMidnight(before: now)...now
    }

    /// The last local midnight at or before `now` (the server's time zone).
    static func localMidnight(before now: Double) -> Double {
        var seconds = time_t(now)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let sinceMidnight = Double(parts.tm_hour) * 3600 + Double(parts.tm_min) * 60 + Double(parts.tm_sec)
        return (now - sinceMidnight).rounded(.down)
    }
}
