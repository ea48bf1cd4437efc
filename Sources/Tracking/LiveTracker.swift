import FoundationEssentials
import Identity
import ModeS
import Pipeline
import Synchronization

/// The tracker shared between the pipeline, which hands it every admitted frame and state
/// report, and the publishing side (the radar feed, aircraft.json, the outputs), which takes
/// snapshots, behind a lock.
///
/// It merges and nothing else: duplicate removal, decoding and counting happen before it, in
/// the `FramePipeline`. Both sides hold the lock briefly, so a plain mutex beats hopping onto
/// an actor for every frame. Its clock is the wall clock; the pipeline has already cut every
/// time from outside back to now.
package final class LiveTracker: DecodedFrameSink {
    private struct State: Sendable {
        var tracker: Tracker
        /// Routes by callsign, from the route service.
        var routes: [String: FlightRoute] = [:]
    }

    /// Called for every merged frame, on the receiving thread, after the tracker merged it.
    /// Listeners must be quick: they run before the receiver takes its next frame.
    package typealias FrameListener = @Sendable (TrackUpdate) -> Void

    private let state: Mutex<State>
    private let listeners = Mutex<[FrameListener]>([])
    /// The receiver's position, if configured.
    package let receiver: GeoPoint?
    /// The tracker's clock: seconds since 1970.
    private let clock: @Sendable () -> Double
    /// Who the aircraft are and the offline routes, looked up for each snapshot.
    package let identities: IdentityDirectory
    /// How many snapshot aircraft had an offline route, and how many of those were refused as
    /// implausible for where the aircraft was (or because it had no position yet).
    private let routeCounts = Mutex((offered: 0, refused: 0))

    /// A tracker for a receiver at `receiver`, keeping time by `clock` (the wall clock; tests
    /// pass their own).
    package init(
        receiver: GeoPoint?, maxRangeKm: Double = 500,
        clock: @escaping @Sendable () -> Double = FramePipeline.wallClock,
        identities: IdentityDirectory = IdentityDirectory()
    ) {
        self.receiver = receiver
        self.clock = clock
        self.identities = identities
        state = Mutex(State(tracker: Tracker(receiver: receiver, maxRangeKm: maxRangeKm)))
    }

    /// Merges one frame the pipeline admitted, and tells the listeners what it did.
    package func merge(_ decoded: DecodedFrame) {
        // The update for listeners is only made when one listens (see `Tracker.merge`).
        let listening = !listeners.withLock { $0.isEmpty }
        let update = state.withLock { state in
            state.tracker.merge(
                decoded.message, at: decoded.received, multilaterated: decoded.frame.isMultilaterated,
                heardAt: decoded.heardAt, signalLevel: decoded.frame.signalLevel, reporting: listening)
        }
        guard var update else { return }
        update.frame = decoded.frame
        update.source = decoded.source
        for listener in listeners.withLock({ $0 }) { listener(update) }
    }

    /// Merges a complete state from another source (OpenSky).
    package func merge(_ report: StateReport) {
        let state = AircraftState(report: report)
        self.state.withLock { $0.tracker.merge(state) }
    }

    /// Adds a listener for merged frames (the SBS output and the MQTT output's aircraft use this).
    package func addFrameListener(_ listener: @escaping FrameListener) {
        listeners.withLock { $0.append(listener) }
    }

    /// The tracker's notion of now: its clock.
    package var now: Double { clock() }

    /// Every aircraft heard recently, with the time the snapshot was taken, each with its
    /// identity and route (`identify`). A read only: aircraft are forgotten by `expire`, on a
    /// timer.
    package func snapshot() -> (time: Double, aircraft: [AircraftState]) {
        let now = clock()
        var (aircraft, online) = state.withLock { state in (state.tracker.snapshot(at: now), state.routes) }
        // Looked up outside the tracker's lock: the pipeline never waits for a lookup.
        identify(&aircraft, online: online)
        return (now, aircraft)
    }

    /// Gives each aircraft its identity and its route: the offline route when the identity
    /// data has one and it is plausible for the aircraft's position (`RoutePlausibility`),
    /// else the route service's (`online`) when the offline data has none.
    private func identify(_ aircraft: inout [AircraftState], online: [String: FlightRoute]) {
        var offered = 0
        var refused = 0
        for index in aircraft.indices {
            let plane = aircraft[index]
            let identity = identities.identity(address: plane.icao, callsign: plane.callsign, category: plane.category)
            aircraft[index].identity = identity.isEmpty ? nil : identity
            guard let callsign = plane.callsign else { continue }
            if let route = identities.route(for: callsign) {
                offered += 1
                if let position = plane.position,
                    RoutePlausibility.isPlausible(route, latitude: position.latitude, longitude: position.longitude)
                {
                    aircraft[index].route = route
                } else {
                    refused += 1
                }
            } else {
                aircraft[index].route = online[callsign]
            }
        }
        routeCounts.withLock { $0 = (offered, refused) }
    }

    /// Of the aircraft of the last snapshot, how many had an offline route and how many of
    /// those were refused as implausible.
    package var offlineRoutes: (offered: Int, refused: Int) { routeCounts.withLock { $0 } }

    /// How many aircraft are tracked now, and how many of them have a position that is not
    /// stale (the ones aircraft.json gives a position).
    package func aircraftCounts() -> (all: Int, withPosition: Int) {
        let snapshot = snapshot()
        let withPosition = snapshot.aircraft.filter { $0.position != nil && !$0.positionIsStale(at: snapshot.time) }
            .count
        return (snapshot.aircraft.count, withPosition)
    }

    /// Replaces the known routes (by callsign, as the aircraft report it); the next
    /// snapshots carry them.
    package func setRoutes(_ routes: [String: FlightRoute]) {
        state.withLock { $0.routes = routes }
    }

    /// The callsigns of the aircraft tracked now, each once.
    package func callsigns() -> [String] {
        let now = clock()
        return state.withLock { state in Array(Set(state.tracker.snapshot(at: now).compactMap(\.callsign))) }
    }

    /// Forgets aircraft not heard for `Tracker.expireAfter` seconds; returns how many.
    @discardableResult
    package func expire() -> Int {
        let now = clock()
        return state.withLock { state in
            let before = state.tracker.count
            state.tracker.expire(at: now)
            return before - state.tracker.count
        }
    }

    /// Calls `expire` every `interval` until the task is cancelled.
    package func expireRegularly(every interval: Duration = .seconds(5)) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            expire()
        }
    }

    /// What the tracker counted of tracks and positions so far.
    package var counts: Tracker.Counts { state.withLock { $0.tracker.counts } }
}
