import ModeS

/// Checks a receiver's announced position against what its own frames say: now and then
/// (every `interval` seconds) it takes an even and an odd airborne position frame of one
/// aircraft from the receiver's batches, decodes them globally (which needs no reference),
/// and measures how far that aircraft is from where the receiver says it is.
///
/// An announcement comes from outside and stays retained at the broker: one left by another
/// publisher of the same name, or set by any client, would have every position of that
/// receiver's frames rejected by the range check, silently. An aircraft farther than any
/// receiver hears (`contradictionKm`) shows the announcement is wrong.
///
/// A plain value with the time passed in, one per receiver: a frame costs a comparison while
/// no check is due, and a decode of its downlink format 17 and 18 frames while one is.
package struct AnnouncementCheck: Sendable {
    /// Seconds between two checks of one receiver.
    package static let interval = 60.0
    /// Farther than any receiver hears: the radio horizon of an aircraft at 45,000 ft is about
    /// 480 km.
    package static let contradictionKm = 600.0
    /// Seconds within which the two frames of a pair must come (as for the tracker's global
    /// decoding: the aircraft cannot have left its zone).
    static let pairWindow = 10.0

    private var pending: (address: UInt32, frame: CPRFrame, time: Double)?
    private var due = -Double.infinity

    /// A check due at once.
    package init() {}

    /// Checks again at once: the announcement changed.
    package mutating func restart() {
        pending = nil
        due = -.infinity
    }

    /// Reads `frame`, received at `time` from a receiver announced at `announced`; returns
    /// the distance in kilometres between the aircraft and `announced` when this frame
    /// completed a pair, nil otherwise.
    package mutating func check(_ frame: Frame, at time: Double, announced: GeoPoint) -> Double? {
        guard time >= due, frame.downlinkFormat == 17 || frame.downlinkFormat == 18 else { return nil }
        let message = MessageDecoder().decode(frame)
        guard let cpr = message.cpr, !cpr.isSurface, cpr.lat != 0 || cpr.lon != 0 else { return nil }
        guard let first = pending, first.address == message.icao, first.frame.isOdd != cpr.isOdd,
            abs(time - first.time) <= Self.pairWindow
        else {
            // Another aircraft's frame waits for its pair, unless that one waited too long.
            if let held = pending, held.address != message.icao, time - held.time <= Self.pairWindow { return nil }
            pending = (message.icao, cpr, time)
            return nil
        }
        pending = nil
        let (even, odd) = cpr.isOdd ? (first.frame, cpr) : (cpr, first.frame)
        guard let position = CPR.globalDecode(even: even, odd: odd, useOdd: cpr.isOdd) else { return nil }
        due = time + Self.interval
        return CPR.distanceKm(position, announced)
    }
}
