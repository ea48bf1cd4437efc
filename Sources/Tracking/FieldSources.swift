/// Where each of an aircraft's fields last came from, and when: the per-field source priority
/// of the tracker, and the `mlat` and `tisb` lists of aircraft.json.
///
/// The same value can arrive by several paths: a ground speed from the aircraft's own ADS-B,
/// from a Comm-B reply to a radar, from a multilateration server or from a TIS-B relay. A
/// value from a less direct path (a later `AddressType`) replaces one from a more direct path
/// only once that one is older than the timeout, so an aircraft answering radar
/// interrogations keeps its ADS-B values, and a TIS-B relay does not override what the
/// aircraft itself says.
package struct FieldSources: Sendable, Equatable {
    /// The fields whose source is kept, each named as aircraft.json names it.
    package enum Field: Int, CaseIterable, Sendable {
        /// Position, altitudes (and the GNSS minus pressure difference), speed, track, rates.
        case position, altitudeBaro, altitudeGeom, geomDelta, groundSpeed, track, baroRate, geomRate
        /// Identity and status.
        case callsign, squawk, emergency, category
        /// Air data: airspeeds, Mach, headings, roll and turn rate.
        case indicatedAirspeed, trueAirspeed, mach, magneticHeading, trueHeading, roll, trackRate
        /// What the autopilot is set to.
        case navQNH, navAltitudeMCP, navAltitudeFMS, navHeading, navModes
        /// Integrity and accuracy figures, and the flight status bits.
        case integrity, version, nicBaro, nacP, nacV, sil, gva, sda, alert, spi

        /// The aircraft.json keys the field fills.
        package var jsonNames: [String] {
            switch self {
            case .position: ["lat", "lon"]
            case .altitudeBaro: ["alt_baro"]
            case .altitudeGeom: ["alt_geom"]
            case .geomDelta: []
            case .groundSpeed: ["gs"]
            case .track: ["track"]
            case .baroRate: ["baro_rate"]
            case .geomRate: ["geom_rate"]
            case .callsign: ["flight"]
            case .squawk: ["squawk"]
            case .emergency: ["emergency"]
            case .category: ["category"]
            case .indicatedAirspeed: ["ias"]
            case .trueAirspeed: ["tas"]
            case .mach: ["mach"]
            case .magneticHeading: ["mag_heading"]
            case .trueHeading: ["true_heading"]
            case .roll: ["roll"]
            case .trackRate: ["track_rate"]
            case .navQNH: ["nav_qnh"]
            case .navAltitudeMCP: ["nav_altitude_mcp"]
            case .navAltitudeFMS: ["nav_altitude_fms"]
            case .navHeading: ["nav_heading"]
            case .navModes: ["nav_modes"]
            case .integrity: ["nic", "rc"]
            case .version: ["version"]
            case .nicBaro: ["nic_baro"]
            case .nacP: ["nac_p"]
            case .nacV: ["nac_v"]
            case .sil: ["sil", "sil_type"]
            case .gva: ["gva"]
            case .sda: ["sda"]
            case .alert: ["alert"]
            case .spi: ["spi"]
            }
        }
    }

    /// The source and time of one field's value.
    package struct Stamp: Sendable, Equatable {
        /// How the value was heard.
        package var type: AddressType
        /// When (seconds, the tracker's clock).
        package var time: Double
    }

    private var stamps = [Stamp?](repeating: nil, count: Field.allCases.count)

    /// No field known.
    package init() {}

    /// The source and time of `field`'s value, nil when it has none.
    package subscript(field: Field) -> Stamp? { stamps[field.rawValue] }

    /// Whether a value of `field` heard as `type` at `time` should replace the current one: it
    /// is as direct or more, or the current value is older than `timeout` seconds. When it
    /// should, the field is stamped with the new source.
    package mutating func accept(_ field: Field, from type: AddressType, at time: Double, timeout: Double) -> Bool {
        if let stamp = stamps[field.rawValue], type > stamp.type, time - stamp.time <= timeout { return false }
        stamps[field.rawValue] = Stamp(type: type, time: time)
        return true
    }

    /// Forgets `field`'s source (its value was moved or dropped).
    package mutating func clear(_ field: Field) {
        stamps[field.rawValue] = nil
    }

    /// Gives `field` the source and time of another field it was derived from.
    package mutating func stamp(_ field: Field, as stamp: Stamp) {
        stamps[field.rawValue] = stamp
    }

    /// The aircraft.json names of the fields whose value came by a source matching `where`,
    /// in a fixed order (`mlat` lists multilaterated fields, `tisb` relayed ones).
    package func jsonNames(where matches: (AddressType) -> Bool) -> [String] {
        Field.allCases.flatMap { field in stamps[field.rawValue].map { matches($0.type) } == true ? field.jsonNames : []
        }
    }
}
