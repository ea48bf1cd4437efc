/// One row for the store, made by `HistoryRecorder` from the tracker's snapshots and written
/// by `HistoryStore` in the next batch. Plain values, handed from the sampling task to the
/// writer through `HistoryQueue`.
package enum HistoryRecord: Sendable, Equatable {
    /// What is known of one visit of an aircraft (replaces the visit's earlier row).
    case sighting(Sighting)
    /// A position kept by the thinning rule.
    case position(TrackPoint)
    /// One minute's statistics.
    case minute(MinuteStatistics)
    /// A new furthest position in one sector and altitude band for one hour.
    case coverage(CoverageCell)
}

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

/// One stored position of a track.
package struct TrackPoint: Sendable, Equatable {
    /// The tracker's key of the aircraft.
    package var address: UInt32
    /// When the position was fixed, seconds since 1970.
    package var time: Double
    /// Latitude, degrees.
    package var latitude: Double
    /// Longitude, degrees.
    package var longitude: Double
    /// Pressure altitude (else GNSS height), feet.
    package var altitudeFt: Int?
    /// Ground speed, knots.
    package var groundSpeedKt: Double?
    /// Track over ground, degrees.
    package var trackDeg: Double?
    /// Vertical rate, feet per minute.
    package var verticalRateFpm: Int?
    /// Whether it was on the ground.
    package var onGround: Bool

    /// A point from its parts.
    package init(
        address: UInt32, time: Double, latitude: Double, longitude: Double, altitudeFt: Int? = nil,
        groundSpeedKt: Double? = nil, trackDeg: Double? = nil, verticalRateFpm: Int? = nil, onGround: Bool = false
    ) {
        self.address = address
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeFt = altitudeFt
        self.groundSpeedKt = groundSpeedKt
        self.trackDeg = trackDeg
        self.verticalRateFpm = verticalRateFpm
        self.onGround = onGround
    }
}

/// One minute of the receiver, as stats.json counts it: the chart series.
package struct MinuteStatistics: Sendable, Equatable {
    /// The minute's start, seconds since 1970 (a multiple of 60).
    package var time: Int
    /// Messages received in the minute.
    package var messages: Int
    /// Aircraft heard in the minute.
    package var aircraft: Int
    /// Of those, with a position.
    package var withPosition: Int
    /// Furthest position from the receiver, kilometres.
    package var maxRangeKm: Double?
    /// Mean signal of the accepted frames, dBFS.
    package var signalDBFS: Double?
    /// Mean noise power of the samples, dBFS.
    package var noiseDBFS: Double?
    /// The strongest frame, dBFS.
    package var peakSignalDBFS: Double?

    /// A minute from its parts.
    package init(
        time: Int, messages: Int, aircraft: Int, withPosition: Int, maxRangeKm: Double? = nil,
        signalDBFS: Double? = nil, noiseDBFS: Double? = nil, peakSignalDBFS: Double? = nil
    ) {
        self.time = time
        self.messages = messages
        self.aircraft = aircraft
        self.withPosition = withPosition
        self.maxRangeKm = maxRangeKm
        self.signalDBFS = signalDBFS
        self.noiseDBFS = noiseDBFS
        self.peakSignalDBFS = peakSignalDBFS
    }
}

/// The furthest position heard in one bearing sector and altitude band during one hour.
package struct CoverageCell: Sendable, Equatable {
    /// Hours since 1970.
    package var hour: Int
    /// Bearing sector from the receiver, 0 ..< `RangeCoverage.sectors`.
    package var sector: Int
    /// Altitude band, 0 ..< `RangeCoverage.bandFloorsFt.count`.
    package var band: Int
    /// Distance from the receiver, kilometres.
    package var rangeKm: Double
    /// The position, degrees.
    package var latitude: Double
    /// The position, degrees.
    package var longitude: Double
    /// Its altitude, feet.
    package var altitudeFt: Int

    /// A cell from its parts.
    package init(
        hour: Int, sector: Int, band: Int, rangeKm: Double, latitude: Double, longitude: Double, altitudeFt: Int
    ) {
        self.hour = hour
        self.sector = sector
        self.band = band
        self.rangeKm = rangeKm
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeFt = altitudeFt
    }
}
