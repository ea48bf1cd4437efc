import Identity
import ModeS
import Tracking

/// Turns the tracker's snapshots, taken once a second, into the rows the store keeps: one
/// `Sighting` per visit of an aircraft, its positions thinned by `TrackThinner`, the coverage
/// cells it widens, and once a minute the minute's statistics.
///
/// A state machine: each call carries the time, so tests drive it with made-up clocks.
package struct HistoryRecorder: Sendable {
    /// Seconds without hearing an aircraft after which its next appearance is a new visit.
    package static let visitGap = 600.0
    /// Seconds between rewrites of a visit's row while it goes on: each rewrite puts the
    /// row's pages into the next batch, the larger part of what is written on a sky of
    /// many aircraft, so not more often than the diary needs.
    package static let sightingInterval = 120.0

    /// One aircraft's visit in progress.
    private struct Visit: Sendable {
        var sighting: Sighting
        var thinner: TrackThinner
        var lastPositionTime: Double?
        var written: Double?
    }

    private let receiver: GeoPoint?
    private let rule: TrackThinner.Rule
    private var visits: [UInt32: Visit] = [:]
    /// Coverage cells of the current hour that grew since the last minute's records.
    private var coverage: [Int: CoverageCell] = [:]
    private var changedCells: Set<Int> = []
    /// The current minute's aircraft, those with a position, and its furthest position.
    private var minuteAircraft: Set<UInt32> = []
    private var minutePositioned: Set<UInt32> = []
    private var minuteRangeKm: Double?

    /// A recorder for a receiver at `receiver` (coverage and ranges need it), thinning by `rule`.
    package init(receiver: GeoPoint?, rule: TrackThinner.Rule = TrackThinner.Rule()) {
        self.receiver = receiver
        self.rule = rule
    }

    /// How many visits are open.
    package var openVisits: Int { visits.count }

    /// The rows `aircraft` (a snapshot taken at `now`) adds.
    package mutating func observe(_ aircraft: [AircraftState], at now: Double) -> [HistoryRecord] {
        var records: [HistoryRecord] = []
        // Visits that ended first: a plane heard again after the gap starts a new one.
        for (key, visit) in visits where now - visit.sighting.lastSeen > Self.visitGap {
            visits[key] = nil
            if visit.written != visit.sighting.lastSeen { records.append(.sighting(visit.sighting)) }
        }
        for plane in aircraft { observe(plane, at: now, into: &records) }
        return records
    }

    private mutating func observe(_ plane: AircraftState, at now: Double, into records: inout [HistoryRecord]) {
        let key = plane.key
        var visit =
            visits[key]
            ?? Visit(sighting: Sighting(address: key, start: plane.lastSeen), thinner: TrackThinner(rule: rule))
        minuteAircraft.insert(key)
        update(&visit.sighting, from: plane)
        if let position = plane.position, let time = plane.positionTime, time > (visit.lastPositionTime ?? -1),
            !plane.positionIsStale(at: now)
        {
            visit.lastPositionTime = time
            minutePositioned.insert(key)
            let point = TrackPoint(
                address: key, time: time, latitude: position.latitude, longitude: position.longitude,
                altitudeFt: plane.altitudeBaroFt ?? plane.altitudeGeoFt, groundSpeedKt: plane.groundSpeedKt,
                trackDeg: plane.trackDeg, verticalRateFpm: plane.verticalRateFpm, onGround: plane.onGround == true)
            records += visit.thinner.offer(point).map(HistoryRecord.position)
            measure(point, sighting: &visit.sighting)
        }
        if visit.written.map({ now - $0 >= Self.sightingInterval }) ?? true {
            visit.written = visit.sighting.lastSeen
            records.append(.sighting(visit.sighting))
        }
        visits[key] = visit
    }

    /// Identity and extremes of `plane` into its visit.
    private func update(_ sighting: inout Sighting, from plane: AircraftState) {
        sighting.lastSeen = max(sighting.lastSeen, plane.lastSeen)
        sighting.callsign = plane.callsign ?? sighting.callsign
        sighting.category = plane.category ?? sighting.category
        if let identity = plane.identity {
            sighting.registration = identity.registration ?? sighting.registration
            sighting.typeCode = identity.typeCode ?? sighting.typeCode
            sighting.typeDescription = identity.typeDescription ?? sighting.typeDescription
            sighting.aircraftClass = identity.aircraftClass?.rawValue ?? sighting.aircraftClass
            sighting.operatorName = identity.operatorName ?? sighting.operatorName
        }
        if let altitude = plane.altitudeBaroFt, plane.onGround != true {
            sighting.minAltitudeFt = min(sighting.minAltitudeFt ?? altitude, altitude)
            sighting.maxAltitudeFt = max(sighting.maxAltitudeFt ?? altitude, altitude)
        }
        if let speed = plane.groundSpeedKt, speed.isFinite {
            sighting.maxSpeedKt = max(sighting.maxSpeedKt ?? speed, speed)
        }
    }

    /// The range of `point` from the receiver: the visit's closest, the minute's furthest,
    /// and the coverage cell it may widen.
    private mutating func measure(_ point: TrackPoint, sighting: inout Sighting) {
        guard let receiver else { return }
        let position = GeoPoint(latitude: point.latitude, longitude: point.longitude)
        let range = CPR.distanceKm(receiver, position)
        guard range.isFinite else { return }
        sighting.closestKm = min(sighting.closestKm ?? range, range)
        minuteRangeKm = max(minuteRangeKm ?? range, range)
        guard let altitude = point.altitudeFt, !point.onGround else { return }
        let cell = RangeCoverage.cell(receiver: receiver, position: position, altitudeFt: altitude, time: point.time)
        let index = cell.sector * RangeCoverage.bandFloorsFt.count + cell.band
        if let held = coverage[index], held.hour == cell.hour, held.rangeKm >= cell.rangeKm { return }
        coverage[index] = cell
        changedCells.insert(index)
    }

    /// Closes the minute that began at `minute` (seconds since 1970, a multiple of 60) with
    /// the receiver's figures for it, and returns its rows: its statistics and the coverage
    /// cells that grew.
    package mutating func closeMinute(
        _ minute: Int, messages: Int, signalDBFS: Double?, noiseDBFS: Double?, peakSignalDBFS: Double?
    ) -> [HistoryRecord] {
        let statistics = MinuteStatistics(
            time: minute, messages: messages, aircraft: minuteAircraft.count, withPosition: minutePositioned.count,
            maxRangeKm: minuteRangeKm, signalDBFS: signalDBFS, noiseDBFS: noiseDBFS, peakSignalDBFS: peakSignalDBFS)
        var records = [HistoryRecord.minute(statistics)] + changedCoverage()
        minuteAircraft = []
        minutePositioned = []
        minuteRangeKm = nil
        return records
    }

    /// The coverage cells that grew since they were last taken, for the next batch (so the
    /// outline keeps up with the batches, and a crash loses no more of it than of the rest).
    package mutating func changedCoverage() -> [HistoryRecord] {
        defer { changedCells = [] }
        return changedCells.sorted().compactMap { coverage[$0].map(HistoryRecord.coverage) }
    }

    /// The rows of every open visit not yet written as it stands (at shutdown).
    package func pendingSightings() -> [HistoryRecord] {
        visits.values.filter { $0.written != $0.sighting.lastSeen }.map { .sighting($0.sighting) }
    }
}
