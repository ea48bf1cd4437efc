/// The Mode S ground stations around the receiver, each with its interrogator code, whose
/// all-call interrogations make aircraft answer with DF11 replies carrying that code in the
/// low 7 bits of the parity.
///
/// A station reaches only part of the sky (its range and coverage), so some codes come back
/// from many aircraft and some from a few. Codes are drawn from 1–63 (II codes up to 15,
/// SI codes above), all different.
package struct GroundStations: Sendable, Equatable {
    /// Number of stations.
    package var count: Int
    /// Mean all-call replies per second an aircraft in a station's reach sends to it.
    package var repliesPerSecond: Double

    /// `count` stations, each drawing `repliesPerSecond` all-call replies from every
    /// aircraft it reaches.
    package init(count: Int, repliesPerSecond: Double) {
        self.count = count
        self.repliesPerSecond = repliesPerSecond
    }

    /// One station: its code and the share of the aircraft it reaches.
    struct Station: Sendable {
        var code: UInt32
        var reach: Double
    }

    /// The stations of one sky.
    func stations(_ generator: inout SeededGenerator) -> [Station] {
        var codes: [UInt32] = []
        while codes.count < min(count, 63) {
            let code = UInt32(1 + generator.integer(below: 63))
            if !codes.contains(code) { codes.append(code) }
        }
        return codes.map { Station(code: $0, reach: generator.uniform(0.05, 1)) }
    }
}
