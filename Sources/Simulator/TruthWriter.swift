import FoundationEssentials
import IQ
import ModeS
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `FILE.truth.jsonl`: what was really on air, for tests and yield measurements.
///
/// One JSON object per line: a header, then in time order one `message` line per
/// transmitted message (time of the first preamble pulse, its sample index, hex, DF, ICAO,
/// SNR, overlap) and, once a second, one `state` line per aircraft with its true position,
/// altitude, velocity and track.
package struct TruthWriter {
    /// The settings the header records.
    package struct Header {
        /// Sample format.
        package var format: SampleFormat
        /// Samples per second.
        package var sampleRate: Int
        /// Recording length, seconds.
        package var duration: Double
        /// The seed.
        package var seed: UInt64
        /// Number of aircraft.
        package var aircraft: Int
        /// Receiver position and height.
        package var receiver: GeoPoint
        /// Receiver height, metres.
        package var receiverAltitudeM: Double
        /// The fixed SNR range, if any.
        package var snrRange: ClosedRange<Double>?
        /// Dense sky.
        package var busy: Bool
        /// The channel, when it is not the kind one (the kind channel's header stays as it was).
        package var channel: Channel? = nil
        /// Mode A/C replies on air (interference, no message lines).
        package var modeACReplies: Int = 0
    }

    /// Produces the truth file line by line (each with its newline), in order.
    package static func lines(
        header: Header, scenario: Scenario, transmissions: [Transmission],
        emit: (String) throws -> Void
    ) rethrows {
        try emit(headerLine(header) + "\n")
        var nextState = 0.0
        func emitStates(upTo time: Double) throws {
            while nextState < header.duration, nextState <= time {
                for track in scenario.aircraft { try emit(stateLine(track, at: nextState) + "\n") }
                nextState += 1
            }
        }
        for transmission in transmissions {
            try emitStates(upTo: transmission.time)
            try emit(messageLine(transmission, sampleRate: Double(header.sampleRate)) + "\n")
        }
        try emitStates(upTo: header.duration)
    }

    /// The whole truth file's text (for short recordings and tests).
    package static func text(header: Header, scenario: Scenario, transmissions: [Transmission]) -> String {
        var out = ""
        lines(header: header, scenario: scenario, transmissions: transmissions) { out += $0 }
        return out
    }

    /// Writes the truth file, streaming it so that long recordings need no large buffer.
    package static func write(path: String, header: Header, scenario: Scenario, transmissions: [Transmission]) throws {
        guard let file = fopen(path, "wb") else {
            throw SimulationError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        try lines(header: header, scenario: scenario, transmissions: transmissions) { line in
            guard fputs(line, file) >= 0 else {
                throw SimulationError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
        }
        guard fflush(file) == 0 else {
            throw SimulationError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    static func headerLine(_ h: Header) -> String {
        let snrMin = h.snrRange.map { DecimalText.fixed($0.lowerBound, places: 2) } ?? "null"
        let snrMax = h.snrRange.map { DecimalText.fixed($0.upperBound, places: 2) } ?? "null"
        return "{\"type\":\"header\",\"version\":1,\"format\":\"\(h.format.rawValue)\",\"sample_rate\":\(h.sampleRate),"
            + "\"duration_s\":\(DecimalText.fixed(h.duration, places: 6)),\"seed\":\(h.seed),\"aircraft\":\(h.aircraft),"
            + "\"receiver\":{\"lat\":\(DecimalText.fixed(h.receiver.latitude, places: 6)),\"lon\":\(DecimalText.fixed(h.receiver.longitude, places: 6)),"
            + "\"alt_m\":\(DecimalText.fixed(h.receiverAltitudeM, places: 1))},"
            + "\"snr_min_db\":\(snrMin),\"snr_max_db\":\(snrMax),\"busy\":\(h.busy)"
            + (h.channel.map { ",\"channel\":\(channelObject($0)),\"mode_ac_replies\":\(h.modeACReplies)" } ?? "") + "}"
    }

    /// The channel's settings as a JSON object (null for what is off).
    static func channelObject(_ c: Channel) -> String {
        func number(_ x: Double) -> String { DecimalText.fixed(x, places: 4) }
        let multipath = c.multipath.map { number($0.fraction) } ?? "null"
        let filter =
            c.filter.map { "{\"bandwidth\":\(number($0.bandwidth)),\"damping\":\(number($0.damping))}" } ?? "null"
        let iq =
            c.iqImbalance.map { "{\"gain_db\":\(number($0.gainDb)),\"phase_deg\":\(number($0.phaseDeg))}" } ?? "null"
        let dc = c.dcOffset.map { "{\"i\":\(number($0.i)),\"q\":\(number($0.q))}" } ?? "null"
        let gain =
            c.gainSteps.map { "{\"range_db\":\(number($0.rangeDb)),\"mean_interval_s\":\(number($0.meanIntervalS))}" }
            ?? "null"
        let stations =
            c.stations.map { "{\"count\":\($0.count),\"replies_per_s\":\(number($0.repliesPerSecond))}" } ?? "null"
        let trains =
            c.trains.map { "{\"share\":\(number($0.fraction)),\"per_s\":\(number($0.trainsPerSecond))}" } ?? "null"
        return "{\"multipath_share\":\(multipath),\"filter\":\(filter),\"tuning_error_hz\":\(number(c.tuningErrorHz)),"
            + "\"phase_noise_rad\":\(number(c.phaseNoise)),\"iq_imbalance\":\(iq),\"dc_offset\":\(dc),\"gain_steps\":\(gain),"
            + "\"rail_lsb\":\(c.rail.map(number) ?? "null"),\"mode_ac_per_s\":\(c.modeAC.map { number($0.ratePerAircraft) } ?? "null"),"
            + "\"ground_stations\":\(stations),\"trains\":\(trains),\"strongest_snr_db\":\(number(c.strongestSnrDb))}"
    }

    /// The 6-hex-digit lower-case address.
    static func icaoText(_ icao: UInt32) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for shift in stride(from: 20, through: 0, by: -4) { text.append(digits[Int((icao >> UInt32(shift)) & 0xF)]) }
        return String(decoding: text, as: UTF8.self)
    }

    static func messageLine(_ m: Transmission, sampleRate: Double) -> String {
        let sample = Int((m.time * sampleRate).rounded(.down))
        let address =
            m.bits.downlinkFormat == 11 || m.bits.downlinkFormat == 17
            ? UInt32(m.bits.field(9, 32)) : CRC.syndrome(of: m.bits)
        return "{\"type\":\"message\",\"t\":\(DecimalText.fixed(m.time, places: 7)),\"sample\":\(sample),"
            + "\"hex\":\"\(m.bits.hex)\",\"df\":\(m.bits.downlinkFormat),\"icao\":\"\(icaoText(address))\","
            + "\"snr_db\":\(DecimalText.fixed(m.snrDb, places: 2)),\"overlap\":\(m.overlap)}"
    }

    static func stateLine(_ track: AircraftTrack, at t: Double) -> String {
        let s = track.state(at: t)
        return "{\"type\":\"state\",\"t\":\(DecimalText.fixed(t, places: 1)),\"icao\":\"\(icaoText(track.icao))\","
            + "\"callsign\":\"\(track.callsign)\",\"category\":\"\(track.category)\",\"squawk\":\"\(track.squawk)\","
            + "\"lat\":\(DecimalText.fixed(s.position.latitude, places: 6)),\"lon\":\(DecimalText.fixed(s.position.longitude, places: 6)),"
            + "\"alt_baro_ft\":\(DecimalText.fixed(s.altitudeBaroFt, places: 0)),"
            + "\"alt_geo_ft\":\(DecimalText.fixed(s.altitudeGeoFt, places: 0)),"
            + "\"ground_speed_kt\":\(DecimalText.fixed(s.groundSpeedKt, places: 1)),"
            + "\"track_deg\":\(DecimalText.fixed(s.trackDeg, places: 1)),"
            + "\"vertical_rate_fpm\":\(DecimalText.fixed(s.verticalRateFpm, places: 0)),\"on_ground\":\(s.onGround)}"
    }
}
