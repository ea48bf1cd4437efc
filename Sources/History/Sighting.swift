/// One visit of an aircraft: from when it was first heard until it has not been heard for
/// `HistoryRecorder.visitGap` seconds. Its identity and the extremes the diary asks for.
package struct Sighting: Sendable, Equatable {
    /// The tracker's key: the 24-bit address, bit 24 set for a non-ICAO address.
    package var address: UInt32
    /// When the visit began, seconds since 1970.
    package var start: Double
    /// When the aircraft was last heard.
    package var lastSeen: Double
    /// Callsign, blanks removed.
    package var callsign: String?
    /// Registration, from the identity data.
    package var registration: String?
    /// ICAO type designator ("A320").
    package var typeCode: String?
    /// Manufacturer and model.
    package var typeDescription: String?
    /// The identity data's class ("heavy", "light"…), for the diary's pictures.
    package var aircraftClass: String?
    /// Operator or airline.
    package var operatorName: String?
    /// ADS-B emitter category ("A3").
    package var category: String?
    /// Lowest pressure altitude while airborne, feet.
    package var minAltitudeFt: Int?
    /// Highest pressure altitude, feet.
    package var maxAltitudeFt: Int?
    /// Fastest ground speed, knots.
    package var maxSpeedKt: Double?
    /// Closest distance to the receiver, kilometres.
    package var closestKm: Double?

    /// A visit of `address` starting at `start`, nothing else known yet.
    package init(address: UInt32, start: Double) {
        self.address = address
        self.start = start
        self.lastSeen = start
    }
}
