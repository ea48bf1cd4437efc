import ModeS

/// A simulated sky around a receiver: a set of aircraft tracks drawn from a seed.
///
/// A quiet sky is mostly cruising traffic spread over 250 km, with a few departures and
/// arrivals near the receiver. A busy sky puts the receiver next to an airport: many
/// aircraft taxiing, departing and arriving close by, and more interrogation replies (see
/// `TransmissionSchedule`), so that bursts often overlap.
package struct Scenario: Sendable {
    /// The receiver's position.
    package var receiver: GeoPoint
    /// Receiver antenna height above sea level, metres.
    package var receiverAltitudeM: Double
    /// Dense airport traffic.
    package var busy: Bool
    /// The aircraft.
    package var aircraft: [AircraftTrack]

    /// A sky of `count` aircraft around `receiver`, entirely determined by `generator`.
    package init(receiver: GeoPoint, count: Int, busy: Bool, generator: inout SeededGenerator) {
        self.receiver = receiver
        self.receiverAltitudeM = 0
        self.busy = busy
        var used = Set<UInt32>()
        var callsigns = Set<String>()
        var tracks: [AircraftTrack] = []
        // The airport sits 2 km east of the receiver; its runway runs 240°/060°.
        let airport = receiver.offset(north: 0, east: 2000)
        for _ in 0..<max(0, count) {
            var icao: UInt32
            repeat {
                // Addresses in the European blocks (0x380000–0x4FFFFF), never zero.
                icao = 0x38_0000 + UInt32(generator.integer(below: 0x18_0000))
            } while used.contains(icao)
            used.insert(icao)
            var callsign: String
            repeat { callsign = Self.callsign(&generator) } while callsigns.contains(callsign)
            callsigns.insert(callsign)
            let phase = Self.phase(busy: busy, &generator)
            tracks.append(
                Self.track(
                    icao: icao, callsign: callsign, phase: phase, receiver: receiver,
                    airport: airport, &generator))
        }
        aircraft = tracks
    }

    private static let airlines = [
        "KLM", "EZY", "BAW", "DLH", "AFR", "RYR", "TRA", "UAE", "SAS", "IBE",
        "AUA", "SWR", "TAP", "FIN", "THY", "WZZ", "EXS", "TFL", "CFE", "BEL"
    ]

    private static func callsign(_ g: inout SeededGenerator) -> String {
        var text = g.pick(airlines)
        let digits = 1 + g.integer(below: 4)
        for index in 0..<digits {
            let digit = index == 0 ? 1 + g.integer(below: 9) : g.integer(below: 10)
            text += String(digit)
        }
        if digits < 4, g.chance(0.4) {
            text += String(UnicodeScalar(UInt8(ascii: "A") + UInt8(g.integer(below: 26))))
        }
        return text
    }

    private static func phase(busy: Bool, _ g: inout SeededGenerator) -> FlightPhase {
        let u = g.uniform()
        if busy {
            return u < 0.25 ? .taxiing : u < 0.5 ? .climbing : u < 0.75 ? .landing : .cruising
        }
        return u < 0.1 ? .taxiing : u < 0.3 ? .climbing : u < 0.5 ? .landing : .cruising
    }

    private static func squawk(_ g: inout SeededGenerator) -> String {
        while true {
            let code = (0..<4).map { _ in String(g.integer(below: 8)) }.joined()
            // Keep clear of the emergency and special-purpose codes.
            if !["7500", "7600", "7700", "0000", "7777"].contains(code) { return code }
        }
    }

    /// One aircraft's track: where it starts in its `phase` of flight (near the `airport`, or
    /// cruising around the `receiver`) and how it moves, its category, squawk and the
    /// transponder's habits.
    private static func track(
        icao: UInt32, callsign: String, phase: FlightPhase, receiver: GeoPoint,
        airport: GeoPoint, _ g: inout SeededGenerator
    ) -> AircraftTrack {
        let bearing = g.uniform(0, 360)
        var category = g.chance(0.8) ? "A3" : g.pick(["A1", "A2", "A4", "A5"])
        let start = Start(
            phase: phase, bearing: bearing, receiver: receiver, airport: airport, category: &category, &g)
        let onGround = start.onGround
        let geoOffset = onGround ? g.uniform(-50, 50) : g.uniform(-300, 400)
        let initial = TrueAircraftState(
            position: start.position, altitudeBaroFt: start.altitude,
            altitudeGeoFt: start.altitude + geoOffset, groundSpeedKt: start.speed,
            trackDeg: start.track, verticalRateFpm: start.rate, onGround: onGround)
        let frequency = g.uniform(-60_000, 60_000)
        let level = g.gaussian() * 2.5
        // A few arriving aircraft report GNSS height positions (type codes 20-22). The height
        // field holds metres in 12 bits (up to 13,435 ft), so only descending aircraft below
        // 12,000 ft are chosen: they never leave the field's range.
        let gnss = phase == .landing && start.altitude < 12_000 && g.chance(0.25)
        let airspeed = !onGround && !gnss && g.chance(0.08)
        return AircraftTrack(
            icao: icao, callsign: callsign, category: category, squawk: squawk(&g),
            phase: phase, initial: initial, floorFt: 0, gnssPositionsOnly: gnss,
            reportsAirspeed: airspeed, gillhamAltitude: g.chance(0.1),
            frequencyOffsetHz: frequency, levelOffsetDb: level)
    }

    /// Where an aircraft starts and how it moves, as its phase of flight makes likely.
    private struct Start {
        /// Where it starts.
        var position: GeoPoint
        /// Pressure altitude, feet.
        var altitude: Double
        /// Ground speed, knots.
        var speed: Double
        /// Track, degrees in [0, 360).
        var track: Double
        /// Vertical rate, feet per minute.
        var rate: Double
        /// Whether it is on the ground.
        var onGround = false

        /// A start in `phase` at `bearing` (degrees) from the airport (taxiing, climbing,
        /// landing) or the receiver (cruising); a few taxiing vehicles get a surface `category`.
        init(
            phase: FlightPhase, bearing: Double, receiver: GeoPoint, airport: GeoPoint, category: inout String,
            _ g: inout SeededGenerator
        ) {
            let (bs, bc) = DeterministicMath.sinCos(DeterministicMath.radians(bearing))
            switch phase {
            case .taxiing:
                // Within 3 km of the airport reference point; a third are parked.
                let distance = g.uniform(100, 3000)
                position = airport.offset(north: distance * bc, east: distance * bs)
                altitude = 0
                speed = g.chance(0.33) ? 0 : g.uniform(3, 25)
                track = g.uniform(0, 360)
                rate = 0
                onGround = true
                if g.chance(0.15) { category = g.pick(["C1", "C2"]) }
            case .climbing:
                let distance = g.uniform(3_000, 60_000)
                position = airport.offset(north: distance * bc, east: distance * bs)
                altitude = g.uniform(1_500, 24_000)
                speed = 160 + altitude / 24_000 * 200 + g.uniform(-20, 20)
                track = bearing + g.uniform(-30, 30)  // outbound
                rate = g.uniform(1_000, 3_200)
            case .landing:
                let distance = g.uniform(4_000, 80_000)
                position = airport.offset(north: distance * bc, east: distance * bs)
                altitude = min(distance * 0.16, 14_000) + g.uniform(-300, 300)  // about a 3° path
                speed = 140 + altitude / 14_000 * 150 + g.uniform(-10, 10)
                track = bearing + 180 + g.uniform(-20, 20)  // inbound
                rate = -g.uniform(500, 1_600)
            case .cruising:
                // Uniform over the disc, between 15 and 250 km.
                let distance = (g.uniform(0.0036, 1)).squareRoot() * 250_000
                position = receiver.offset(north: distance * bc, east: distance * bs)
                altitude = (g.uniform(28_000, 41_000) / 1000).rounded() * 1000
                speed = g.uniform(380, 520)
                track = g.uniform(0, 360)
                rate = g.chance(0.8) ? 0 : g.pick([-1, 1]) * g.uniform(300, 1_500)
            }
            track = ExtendedSquitterEncoder.normalized(track)
        }
    }
}
