import ModeS
import Testing

@testable import Simulator

/// Transmission rates, even/odd alternation, self-overlap and overlap marking.
@Suite struct ScheduleTests {
    static func simulation(busy: Bool, aircraft: Int, duration: Double, seed: UInt64) throws -> Simulation {
        var settings = Simulation.Settings()
        settings.busy = busy
        settings.aircraft = aircraft
        settings.duration = duration
        settings.seed = seed
        return try Simulation(settings: settings)
    }

    @Test func airborneRatesMatchRealTransponders() throws {
        let simulation = try Self.simulation(busy: false, aircraft: 30, duration: 60, seed: 21)
        for (index, track) in simulation.scenario.aircraft.enumerated() where !track.initial.onGround {
            let mine = simulation.transmissions.filter { $0.aircraft == index }
            func count(_ df: Int, _ typeCodes: ClosedRange<UInt64>? = nil) -> Int {
                mine.filter { t in
                    t.bits.downlinkFormat == df && (typeCodes.map { $0.contains(t.bits.field(33, 37)) } ?? true)
                }.count
            }
            let positions = mine.filter {
                $0.bits.downlinkFormat == 17
                    && [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21, 22].contains($0.bits.field(33, 37))
            }
            #expect((100...150).contains(positions.count), "positions \(positions.count)")
            // Even and odd alternate.
            for (a, b) in zip(positions, positions.dropFirst()) { #expect(a.bits.bit(54) != b.bits.bit(54)) }
            #expect((100...150).contains(count(17, 19...19)))
            #expect((11...13).contains(count(17, 1...4)))
            #expect((48...75).contains(count(11)))
        }
    }

    @Test func overlapsAreMarkedExactlyAndNoTransponderOverlapsItself() throws {
        let simulation = try Self.simulation(busy: true, aircraft: 150, duration: 3, seed: 22)
        let list = simulation.transmissions
        #expect(zip(list, list.dropFirst()).allSatisfy { $0.time <= $1.time })
        var overlapping = Set<Int>()
        for i in list.indices {
            var j = i + 1
            while j < list.count, list[j].time < list[i].end {
                overlapping.insert(i)
                overlapping.insert(j)
                #expect(list[i].aircraft != list[j].aircraft, "aircraft overlaps itself")
                j += 1
            }
        }
        for i in list.indices { #expect(list[i].overlap == overlapping.contains(i)) }
        // A busy sky really is busy.
        let fraction = Double(overlapping.count) / Double(list.count)
        #expect(fraction > 0.15, "only \(fraction) of bursts overlap")
        #expect(list.allSatisfy { $0.end < 3 })
    }

    @Test func fixedSNRRangeIsRespectedAndDistanceModelSpreads() throws {
        var settings = Simulation.Settings()
        settings.duration = 5
        settings.snrRange = 6...9
        let fixed = try Simulation(settings: settings)
        #expect(fixed.transmissions.allSatisfy { (6...9).contains($0.snrDb) })
        settings.snrRange = nil
        let free = try Simulation(settings: settings)
        let snrs = free.transmissions.map(\.snrDb)
        #expect(snrs.min()! < 12 && snrs.max()! > 20)
    }

    @Test func sameSeedSameSkyOtherSeedOtherSky() throws {
        let a = try Self.simulation(busy: false, aircraft: 10, duration: 2, seed: 1)
        let b = try Self.simulation(busy: false, aircraft: 10, duration: 2, seed: 1)
        let c = try Self.simulation(busy: false, aircraft: 10, duration: 2, seed: 2)
        #expect(a.transmissions.map(\.bits) == b.transmissions.map(\.bits))
        #expect(a.transmissions.map(\.time) == b.transmissions.map(\.time))
        #expect(a.transmissions.map(\.bits) != c.transmissions.map(\.bits))
    }

    @Test func settingsAreValidated() {
        var settings = Simulation.Settings()
        settings.sampleRate = 3_000_000
        #expect(throws: SimulationError.self) { try Simulation(settings: settings) }
        settings = Simulation.Settings()
        settings.duration = 0
        #expect(throws: SimulationError.self) { try Simulation(settings: settings) }
    }
}
