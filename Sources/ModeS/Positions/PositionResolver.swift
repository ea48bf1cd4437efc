/// Turns the CPR frames of a stream of messages into positions, one aircraft at a time.
///
/// For each address it keeps the latest even and odd frame and the last position fixed.
/// A new frame is resolved, in order of preference:
/// 1. globally, with the latest frame of the other parity, if that arrived recently enough
///    that the aircraft cannot have left its zone (10 s airborne, 50 s on the surface);
/// 2. locally, against the aircraft's own last position if it is recent;
/// 3. locally, against the receiver, only where that is unambiguous: surface frames within
///    45 NM, or airborne frames when `maxRangeKm` keeps every aircraft within half a zone.
///
/// Every result passes plausibility checks before it is kept: within `maxRangeKm` of the
/// receiver (when known), and reachable from the last position at airliner speeds. A pair
/// failing them is discarded rather than guessed at.
///
/// Its memory is bounded whatever the times say. Every `pruneEvery` messages it forgets the
/// aircraft whose last message is more than ten minutes from the current message's time, in
/// either direction, so one line with a time far in the future or the past cannot stop the
/// pruning. The count of aircraft is also capped at `maximumAircraft`: beyond it the half
/// heard least recently, in message order rather than by their times, is forgotten. A
/// message without a finite time is not resolved and leaves no trace.
public struct PositionResolver: Sendable {
    /// The receiver's position, used as a reference and for the range check.
    public var receiver: GeoPoint?
    /// Positions farther than this from the receiver are rejected (kilometres).
    public var maxRangeKm: Double

    /// Fastest plausible ground speed (km/s): about 1,300 kt, well above any airliner.
    static let maxSpeedKmPerSecond = 0.67
    /// Half a latitude zone airborne (6°/2 ≈ 333 km): the limit of unambiguous local decoding.
    static let airborneLocalLimitKm = 333.0
    /// Half a surface zone (1.5°/2 ≈ 83 km, 45 NM).
    static let surfaceLocalLimitKm = 83.0
    /// The most aircraft remembered at once: several times what any receiver hears, or what
    /// a worldwide feed carries in ten minutes, so it binds only on garbage input.
    public static let maximumAircraft = 20_000
    /// Messages between two prunings by time: often enough to keep memory to the aircraft of
    /// the last ten minutes, rarely enough that pruning costs little per message.
    public static let pruneEvery = 4096
    /// Aircraft whose last message is this many seconds from the current one are forgotten.
    static let forgetAfter = 600.0

    private struct Sighting: Sendable {
        var frame: CPRFrame
        var time: Double
    }

    private struct Track: Sendable {
        var even: Sighting?
        var odd: Sighting?
        var position: GeoPoint?
        var positionTime: Double = -.infinity
        var lastSeen: Double = -.infinity
        /// The number of the last message that updated the track, in arrival order.
        var lastMessage = 0
        /// Consecutive pairs rejected as implausible against `position`.
        var rejections = 0
    }

    private var tracks: [UInt32: Track] = [:]
    /// Messages with CPR fields seen so far.
    private var messages = 0

    /// How many aircraft are remembered now: at most `maximumAircraft`.
    public var rememberedAircraft: Int { tracks.count }

    /// A resolver, optionally knowing where the receiver is.
    public init(receiver: GeoPoint? = nil, maxRangeKm: Double = 500) {
        self.receiver = receiver
        self.maxRangeKm = maxRangeKm
    }

    /// Sets `message.latitude`/`longitude` when its CPR frame can be resolved; `time` is the
    /// reception time in seconds. Messages without CPR fields pass through unchanged.
    public mutating func resolve(_ message: inout Message, time: Double) {
        resolve(&message, time: time, heardAt: receiver)
    }

    /// Resolves `message` as heard by a receiver at `receiver` rather than this resolver's
    /// own: another receiver of a network, whose position is the right reference for local
    /// decoding and the range check (nil when unknown: global decoding only, no range check).
    /// The aircraft's frames and last position are shared whoever heard them. `key` names
    /// the aircraft when its address alone does not (the tracker's key, which keeps a
    /// non-ICAO address apart from the ICAO aircraft with the same 24 bits); by default the
    /// address.
    public mutating func resolve(
        _ message: inout Message, time: Double, heardAt receiver: GeoPoint?, key: UInt32? = nil
    ) {
        guard let frame = message.cpr else { return }
        // A frame with zero lat and lon fields is how some transponders say "no position".
        if frame.lat == 0 && frame.lon == 0 && !frame.isSurface { return }
        guard time.isFinite else { return }
        messages += 1
        pruneIfDue(time)
        let key = key ?? message.icao
        if tracks[key] == nil && tracks.count >= Self.maximumAircraft { forgetLeastRecent() }
        var track = tracks[key] ?? Track()
        track.lastSeen = time
        track.lastMessage = messages
        let sighting = Sighting(frame: frame, time: time)
        if frame.isOdd { track.odd = sighting } else { track.even = sighting }

        if let position = resolveGlobally(&track, frame: frame, time: time, receiver: receiver)
            ?? resolveLocally(track, frame: frame, time: time, receiver: receiver)
        {
            track.position = position
            track.positionTime = time
            message.latitude = position.latitude
            message.longitude = position.longitude
        }
        tracks[key] = track
    }

    private mutating func resolveGlobally(
        _ track: inout Track, frame: CPRFrame, time: Double,
        receiver: GeoPoint?
    ) -> GeoPoint? {
        guard let even = track.even, let odd = track.odd,
            even.frame.isSurface == odd.frame.isSurface
        else { return nil }
        let window = frame.isSurface ? 50.0 : 10.0
        guard abs(even.time - odd.time) <= window else { return nil }
        let reference = recentPosition(track, time: time) ?? receiver
        guard
            let position = CPR.globalDecode(
                even: even.frame, odd: odd.frame,
                useOdd: frame.isOdd, reference: reference)
        else {
            return nil
        }
        guard isPlausible(position, track: track, time: time, receiver: receiver) else {
            // Keep only the newest frame: the older one is the likelier culprit. If pairs keep
            // disagreeing with the last position, that position was the bad one: forget it.
            if frame.isOdd { track.even = nil } else { track.odd = nil }
            track.rejections += 1
            if track.rejections >= 2 {
                track.position = nil
                track.rejections = 0
            }
            return nil
        }
        track.rejections = 0
        return position
    }

    private func resolveLocally(_ track: Track, frame: CPRFrame, time: Double, receiver: GeoPoint?) -> GeoPoint? {
        if let last = recentPosition(track, time: time) {
            guard let position = CPR.localDecode(frame, reference: last) else { return nil }
            let limit = frame.isSurface ? Self.surfaceLocalLimitKm : Self.airborneLocalLimitKm
            guard CPR.distanceKm(position, last) < limit,
                isPlausible(position, track: track, time: time, receiver: receiver)
            else { return nil }
            return position
        }
        guard let receiver else { return nil }
        let limit = frame.isSurface ? Self.surfaceLocalLimitKm : Self.airborneLocalLimitKm
        // Unambiguous only when nothing can be received beyond half a zone.
        guard frame.isSurface || maxRangeKm <= limit else { return nil }
        guard let position = CPR.localDecode(frame, reference: receiver) else { return nil }
        guard CPR.distanceKm(position, receiver) <= min(limit, maxRangeKm) else { return nil }
        return position
    }

    /// The track's last position if it is recent enough to decode against (10 minutes
    /// on the surface, 2 minutes airborne: far less than the time to cross half a zone).
    private func recentPosition(_ track: Track, time: Double) -> GeoPoint? {
        guard let position = track.position else { return nil }
        return time - track.positionTime <= 120 ? position : nil
    }

    private func isPlausible(_ position: GeoPoint, track: Track, time: Double, receiver: GeoPoint?) -> Bool {
        if let receiver, CPR.distanceKm(position, receiver) > maxRangeKm { return false }
        if let last = track.position {
            let elapsed = max(0, time - track.positionTime)
            // A few kilometres of slack cover CPR resolution and timestamp jitter.
            let reachable = 3 + elapsed * Self.maxSpeedKmPerSecond
            if elapsed < 600, CPR.distanceKm(position, last) > reachable { return false }
        }
        return true
    }

    /// Every `pruneEvery` messages, forgets the aircraft whose last message is more than ten
    /// minutes before or after `time`.
    private mutating func pruneIfDue(_ time: Double) {
        guard messages % Self.pruneEvery == 0 else { return }
        tracks = tracks.filter { abs(time - $0.value.lastSeen) < Self.forgetAfter }
    }

    /// Forgets the half of the aircraft heard least recently, by message order.
    private mutating func forgetLeastRecent() {
        let order = tracks.values.map(\.lastMessage).sorted()
        let cut = order[order.count / 2]
        tracks = tracks.filter { $0.value.lastMessage >= cut }
    }
}
