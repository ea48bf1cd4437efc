/// When each aircraft transmits what, over a recording.
///
/// Rates follow what real transponders do (DO-260B and Annex 10): airborne positions and
/// velocities every 0.4–0.6 s (positions alternate even/odd CPR), identification every
/// 4.8–5.2 s, acquisition squitters (DF11) every 0.8–1.2 s, target state every 1.2–1.3 s,
/// operational status every 2.4–2.6 s, aircraft status every 4.8–5.2 s; on the ground,
/// positions every 0.4–0.6 s while moving and every 4.8–5.2 s when parked. Replies to
/// ground interrogators (DF4/5/20/21, and DF11 all-call replies in a busy sky) arrive at
/// random (Poisson) times. Each schedule starts at a random phase. One transponder never
/// overlaps itself: a message due while the previous one is still on air waits for it.
/// Different aircraft may collide freely, as on a real channel.
package struct TransmissionSchedule: Sendable {
    /// Every message of the recording, in time order, with `overlap` set.
    package private(set) var transmissions: [Transmission]
    /// The Mode A/C replies on air (the channel's interference, no messages), in time order.
    package private(set) var modeACReplies: [ModeACReply] = []

    /// Mean interrogation replies per aircraft per second in a quiet and in a busy sky.
    package static let quietReplyRate = 0.6
    /// See `quietReplyRate`.
    package static let busyReplyRate = 3.0

    /// The schedule of `scenario` over `duration` seconds.
    /// With a `channel` other than the kind one, the sky also carries its interference
    /// (all-call replies to ground stations, trains of Comm-B replies, Mode A/C replies) and
    /// some aircraft's replies an echo. Those draw from generator streams of their own, so the
    /// messages of the kind channel stay exactly what they always were.
    package init(
        scenario: Scenario, duration: Double, levels: SignalLevelModel, generator: SeededGenerator,
        channel: Channel = .kind
    ) {
        var all: [Transmission] = []
        var modeAC: [ModeACReply] = []
        var skyGenerator = generator.stream(0x5EED_0001)
        let stations = channel.stations?.stations(&skyGenerator) ?? []
        for (index, track) in scenario.aircraft.enumerated() {
            var g = generator.stream(UInt64(index) + 1)
            var extra = generator.stream(0x5EED_0000_0000 + UInt64(index))
            let interference =
                channel.isKind
                ? []
                : Self.interferenceEvents(for: track, channel: channel, stations: stations, duration: duration, &extra)
            let echoDelay = channel.multipath?.delay(&extra)
            let events = Self.events(for: track, busy: scenario.busy, duration: duration, extra: interference, &g)
            all += Self.transmissions(
                of: track, index: index, at: events, scenario: scenario, levels: levels, channel: channel,
                echoDelay: echoDelay, &g, extra: &extra)
            if let replies = channel.modeAC, replies.ratePerAircraft > 0 {
                modeAC += Self.modeAC(
                    replies, of: track, duration: duration, scenario: scenario, levels: levels, &extra)
            }
        }
        modeAC.sort { $0.time < $1.time }
        modeACReplies = modeAC
        // Stable order: by time, then by aircraft (times are continuous, ties are rare).
        all.sort { $0.time != $1.time ? $0.time < $1.time : $0.aircraft < $1.aircraft }
        Self.markOverlaps(&all)
        transmissions = all
    }

    /// The messages `track` (aircraft `index`) sends at `events`, each with its level at the
    /// receiver, its carrier phase and, on a channel with multipath, its echo `echoDelay`
    /// later.
    private static func transmissions(
        of track: AircraftTrack, index: Int, at events: [(Double, MessageKind)], scenario: Scenario,
        levels: SignalLevelModel, channel: Channel, echoDelay: Double?, _ g: inout SeededGenerator,
        extra: inout SeededGenerator
    ) -> [Transmission] {
        var all: [Transmission] = []
        for (time, kind) in events {
            let state = track.state(at: time)
            let bits = MessageFactory.message(kind, track: track, state: state)
            let snr = levels.snr(
                track: track, state: state, receiver: scenario.receiver,
                receiverAltitudeM: scenario.receiverAltitudeM, generator: &g)
            let phase = g.uniform(0, 2 * DeterministicMath.pi)
            var transmission = Transmission(
                time: time, aircraft: index, bits: bits, snrDb: snr,
                frequencyOffsetHz: track.frequencyOffsetHz, phase: phase)
            if let multipath = channel.multipath, let echoDelay {
                transmission.echo = multipath.echo(delay: echoDelay, &extra)
            }
            all.append(transmission)
        }
        return all
    }

    /// The Mode A/C `replies` of `track` over `duration` seconds.
    private static func modeAC(
        _ replies: ModeACReplies, of track: AircraftTrack, duration: Double, scenario: Scenario,
        levels: SignalLevelModel, _ extra: inout SeededGenerator
    ) -> [ModeACReply] {
        var modeAC: [ModeACReply] = []
        // Poisson arrivals, each reply's draws between two arrival times; half answer a
        // Mode A interrogation (the squawk), half a Mode C one (the altitude).
        let rate = replies.ratePerAircraft
        var t = -DeterministicMath.ln(1 - extra.uniform()) / rate
        while t + ModeACReplies.duration < duration {
            let state = track.state(at: t)
            let altitude = extra.chance(0.5)
            let code = ModeACReply.code(
                squawk: altitude ? nil : track.squawk,
                altitudeFt: altitude ? Int(state.altitudeBaroFt.rounded()) : nil)
            let snr = levels.snr(
                track: track, state: state, receiver: scenario.receiver,
                receiverAltitudeM: scenario.receiverAltitudeM, generator: &extra)
            modeAC.append(
                ModeACReply(
                    time: t, code: code, snrDb: snr, frequencyOffsetHz: track.frequencyOffsetHz,
                    phase: extra.uniform(0, 2 * DeterministicMath.pi)))
            t += -DeterministicMath.ln(1 - extra.uniform()) / rate
        }
        return modeAC
    }

    /// Sets `overlap` on every transmission that shares air time with another.
    static func markOverlaps(_ list: inout [Transmission]) {
        // Sorted by start and no burst lasts more than 120 µs, so only bursts that started
        // within the last 120 µs can still be on air.
        for index in list.indices {
            var back = index - 1
            while back >= 0, list[back].time > list[index].time - 121e-6 {
                if list[back].end > list[index].time {
                    list[back].overlap = true
                    list[index].overlap = true
                }
                back -= 1
            }
        }
    }

    /// Guard time after a message before the same transponder sends again, seconds.
    private static let turnaround = 2e-6

    /// The (time, kind) events of one aircraft, sorted and free of self-overlap.
    static func events(
        for track: AircraftTrack, busy: Bool, duration: Double,
        extra: [(Double, MessageKind)] = [], _ g: inout SeededGenerator
    ) -> [(Double, MessageKind)] {
        var events: [(Double, MessageKind)] = extra
        events += squitterEvents(for: track, duration: duration, &g)
        events += replyEvents(busy: busy, duration: duration, &g)
        events.sort { $0.0 < $1.0 }
        return oneAtATime(events, duration: duration)
    }

    /// The squitters one aircraft sends by itself, each kind at its own rate from a random
    /// phase: on the ground or airborne, parked or moving.
    private static func squitterEvents(
        for track: AircraftTrack, duration: Double, _ g: inout SeededGenerator
    ) -> [(Double, MessageKind)] {
        var events: [(Double, MessageKind)] = []
        func periodic(_ low: Double, _ high: Double, _ make: (Int) -> MessageKind) {
            var t = g.uniform(0, high)
            var count = 0
            while t < duration {
                events.append((t, make(count)))
                count += 1
                t += g.uniform(low, high)
            }
        }
        let ground = track.initial.onGround
        let parkedOrSlow = ground && track.initial.groundSpeedKt == 0
        let firstOdd = g.chance(0.5)
        if ground {
            if parkedOrSlow {
                periodic(4.8, 5.2) { .surfacePosition(odd: ($0 % 2 == 1) != firstOdd) }
                periodic(9.8, 10.2) { _ in .identification }
            } else {
                periodic(0.4, 0.6) { .surfacePosition(odd: ($0 % 2 == 1) != firstOdd) }
                periodic(4.8, 5.2) { _ in .identification }
            }
            periodic(2.4, 2.6) { _ in .operationalStatus }
        } else {
            periodic(0.4, 0.6) { .airbornePosition(odd: ($0 % 2 == 1) != firstOdd) }
            periodic(0.4, 0.6) { _ in .velocity }
            periodic(4.8, 5.2) { _ in .identification }
            periodic(1.2, 1.3) { _ in .targetState }
            periodic(2.4, 2.6) { _ in .operationalStatus }
        }
        periodic(4.8, 5.2) { _ in .aircraftStatus }
        periodic(0.8, 1.2) { _ in .allCall(interrogator: 0) }
        return events
    }

    /// One aircraft's replies to ground interrogators: Poisson arrivals, more of them in a
    /// `busy` sky, which also has all-call replies to other interrogators.
    private static func replyEvents(
        busy: Bool, duration: Double, _ g: inout SeededGenerator
    ) -> [(Double, MessageKind)] {
        var events: [(Double, MessageKind)] = []
        let rate = busy ? busyReplyRate : quietReplyRate
        var t = -DeterministicMath.ln(1 - g.uniform()) / rate
        while t < duration {
            let u = g.uniform()
            let kind: MessageKind
            if busy, u < 0.15 {
                kind = .allCall(interrogator: UInt32(1 + g.integer(below: 15)))
            } else if u < 0.4 {
                kind = .altitudeReply
            } else if u < 0.55 {
                kind = .identityReply
            } else {
                let register = g.pick([0x20, 0x40, 0x50])
                kind = u < 0.85 ? .commBAltitude(register: register) : .commBIdentity(register: register)
            }
            events.append((t, kind))
            t += -DeterministicMath.ln(1 - g.uniform()) / rate
        }
        return events
    }

    /// The time-sorted `events` as one transmitter sends them: each pushed past the end of the
    /// previous one (and its turnaround), and dropped when it would end after `duration`.
    private static func oneAtATime(_ events: [(Double, MessageKind)], duration: Double) -> [(Double, MessageKind)] {
        var busyUntil = -1.0
        var result: [(Double, MessageKind)] = []
        result.reserveCapacity(events.count)
        for (time, kind) in events {
            let start = max(time, busyUntil)
            let length = (8 + Double(isLong(kind) ? 112 : 56)) * 1e-6
            // Keep the whole burst inside the recording.
            guard start + length < duration else { continue }
            result.append((start, kind))
            busyUntil = start + length + turnaround
        }
        return result
    }

    /// The messages one aircraft sends because of the channel's ground stations: all-call
    /// replies to each station that reaches it (Poisson), and trains of Comm-B replies when
    /// it is close to a radar.
    static func interferenceEvents(
        for track: AircraftTrack, channel: Channel, stations: [GroundStations.Station],
        duration: Double, _ g: inout SeededGenerator
    ) -> [(Double, MessageKind)] {
        var events: [(Double, MessageKind)] = []
        let rate = channel.stations?.repliesPerSecond ?? 0
        for station in stations where g.chance(station.reach) {
            for t in poissonTimes(rate: rate, until: duration, &g) {
                events.append((t, .allCall(interrogator: station.code)))
            }
        }
        if let trains = channel.trains, g.chance(trains.fraction) {
            for start in poissonTimes(rate: trains.trainsPerSecond, until: duration, &g) {
                let length =
                    trains.length.lowerBound
                    + g.integer(below: trains.length.upperBound - trains.length.lowerBound + 1)
                for number in 0..<length {
                    let register = g.pick([0x20, 0x40, 0x50])
                    let kind: MessageKind =
                        g.chance(0.5)
                        ? .commBAltitude(register: register)
                        : .commBIdentity(register: register)
                    events.append((start + Double(number) * InterrogationTrains.period, kind))
                }
            }
        }
        return events
    }

    /// The times of Poisson arrivals at `rate` per second before `end` (none for a rate of 0).
    static func poissonTimes(rate: Double, until end: Double, _ g: inout SeededGenerator) -> [Double] {
        guard rate > 0 else { return [] }
        var times: [Double] = []
        var t = -DeterministicMath.ln(1 - g.uniform()) / rate
        while t < end {
            times.append(t)
            t += -DeterministicMath.ln(1 - g.uniform()) / rate
        }
        return times
    }

    private static func isLong(_ kind: MessageKind) -> Bool {
        switch kind {
        case .allCall, .altitudeReply, .identityReply: return false
        default: return true
        }
    }
}
