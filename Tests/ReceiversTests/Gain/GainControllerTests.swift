import Foundation
import Testing

@testable import Receivers

/// The controller against a simple receiver: radio noise that follows the gain decibel for
/// decibel (-27 dBFS at the highest gain), the converter's own noise at -42 dBFS, and strong
/// aircraft that clip above a given gain.
@Suite struct GainControllerTests {
    /// The R820T's gains, dB.
    static let r820t = [
        0.0, 0.9, 1.4, 2.7, 3.7, 7.7, 8.7, 12.5, 14.4, 15.7, 16.6, 19.7, 20.7, 22.9, 25.4, 28.0, 29.7, 32.8, 33.8,
        36.4, 37.2, 38.6, 40.2, 42.1, 43.4, 43.9, 44.5, 48.0, 49.6
    ]

    struct Receiver {
        var radioNoiseAtTop = -27.0
        /// Above this gain, the strong aircraft clip.
        var clipsAbove = 100.0

        func measure(at gain: Double) -> GainMeasurement {
            let radio = pow(10, (radioNoiseAtTop + gain - 49.6) / 10)
            let converter = pow(10, -42.0 / 10)
            return GainMeasurement(
                noiseDBFS: 10 * log10(radio + converter), clippedShare: gain > clipsAbove ? 5e-4 : 0, samples: 75_000)
        }
    }

    /// Runs the controller for `seconds` one-second measurements; returns the gain each second.
    static func run(_ controller: inout GainController, _ receiver: Receiver, seconds: Int, from start: Int = 0)
        -> [Double]
    {
        var gains: [Double] = []
        for second in start..<(start + seconds) {
            _ = controller.update(receiver.measure(at: controller.gain), now: Double(second))
            gains.append(controller.gain)
        }
        return gains
    }

    @Test(arguments: [49.6, 0.0])
    func fromEitherEndItReachesTheWindowWithinHalfAMinute(start: Double) {
        var controller = GainController(steps: Self.r820t, start: start)
        let receiver = Receiver()
        let gains = Self.run(&controller, receiver, seconds: 30)
        let noise = receiver.measure(at: gains.last!).noiseDBFS
        #expect(controller.noiseWindow.contains(noise), "noise \(noise) at \(gains.last!) dB")
        #expect(controller.changes <= 8, "\(controller.changes) moves: \(gains)")
    }

    @Test func aSteadySkyKeepsTheGainForTenMinutes() {
        var controller = GainController(steps: Self.r820t, start: 49.6)
        let receiver = Receiver()
        _ = Self.run(&controller, receiver, seconds: 30)
        let settledAt = controller.gain
        let changes = controller.changes
        let later = Self.run(&controller, receiver, seconds: 600, from: 30)
        #expect(Set(later) == [settledAt])
        #expect(controller.changes == changes)
        #expect(controller.settled)
    }

    @Test func clippingStepsItDownButNotFarBelowTheWindow() {
        var controller = GainController(steps: Self.r820t, start: 40.2)
        // Everything above 20 dB clips: the controller may give up at most its allowance.
        let receiver = Receiver(clipsAbove: 20)
        let gains = Self.run(&controller, receiver, seconds: 60)
        let noise = receiver.measure(at: gains.last!).noiseDBFS
        #expect(gains.last! < 40.2)
        #expect(noise >= controller.noiseWindow.lowerBound - controller.clippingAllowanceDB)
        // A milder case: clipping only above 41 dB, below the gain the noise floor asks for.
        // It steps under the clipping and stays there: it does not climb back into it.
        var milder = GainController(steps: Self.r820t, start: 49.6)
        let moderate = Receiver(clipsAbove: 41)
        let history = Self.run(&milder, moderate, seconds: 600)
        #expect(history.last! <= 41)
        #expect(moderate.measure(at: history.last!).clippedShare == 0)
        #expect(Set(history.suffix(540)).count == 1, "hunting: \(Set(history))")
    }

    @Test func itStaysWithinItsBounds() {
        var controller = GainController(steps: Self.r820t, bounds: 42...49.6, start: 49.6)
        let gains = Self.run(&controller, Receiver(), seconds: 60)
        #expect(gains.allSatisfy { (42...49.6).contains($0) })
        #expect(controller.steps.first == 42.1)
        var narrow = GainController(steps: Self.r820t, bounds: 10...12, start: 49.6)
        #expect(narrow.steps == [8.7] || narrow.steps == [12.5])
        _ = Self.run(&narrow, Receiver(), seconds: 10)
    }

    @Test func aPassingLoudAircraftDoesNotMoveASettledGainButALouderSkyDoes() {
        var controller = GainController(steps: Self.r820t, start: 49.6)
        var receiver = Receiver()
        _ = Self.run(&controller, receiver, seconds: 40)
        let settled = controller.gain
        // Three seconds of clipping from a close aircraft passing over.
        receiver.clipsAbove = 0
        _ = Self.run(&controller, receiver, seconds: 3, from: 40)
        #expect(controller.gain == settled)
        receiver.clipsAbove = 100
        _ = Self.run(&controller, receiver, seconds: 20, from: 43)
        #expect(controller.gain == settled)
        // The sky gets 10 dB louder for good (a new antenna amplifier): it follows.
        receiver.radioNoiseAtTop = -17
        let after = Self.run(&controller, receiver, seconds: 30, from: 63)
        #expect(after.last! < settled)
        #expect(controller.noiseWindow.contains(receiver.measure(at: after.last!).noiseDBFS))
    }

    @Test func theMeasurementAfterAMoveIsSkipped() {
        var controller = GainController(steps: Self.r820t, start: 49.6)
        let receiver = Receiver()
        let first = controller.update(receiver.measure(at: 49.6), now: 0)
        #expect(first != nil)
        // Whatever the next measurement says, it holds samples from before the change.
        #expect(controller.update(receiver.measure(at: 49.6), now: 1) == nil)
    }

    @Test func noStepsOrNoSamplesNeverTrap() {
        var empty = GainController(steps: [], start: nil)
        #expect(empty.update(GainMeasurement(noiseDBFS: -50, clippedShare: 0, samples: 100), now: 0) == nil)
        var controller = GainController(steps: Self.r820t)
        #expect(
            controller.update(GainMeasurement(noiseDBFS: -.infinity, clippedShare: .nan, samples: 0), now: 0) == nil)
        _ = controller.update(GainMeasurement(noiseDBFS: .nan, clippedShare: .nan, samples: 10), now: 1)
        #expect(Self.r820t.contains(controller.gain))
    }
}
