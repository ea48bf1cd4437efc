/// How much of its recovery work the demodulator does: a fixed ladder from the plain path
/// (gate, preamble, the best phases sliced, repairs and the acceptance rules) up to every
/// technique. A computer that cannot afford every technique on a busy sky steps down the
/// ladder rather than fall behind the dongle, because a dropped block of samples loses every
/// reply in it, while a technique left out loses only the few replies that only it recovers.
///
/// The order is by what each technique recovers per unit of processor time, measured on the
/// 20 s dense sky of `make bench` (350 aircraft, about 3,500 replies a second; instructions
/// counted by valgrind on its first 5 s, which the computer's speed and load do not move):
/// the technique that buys least for its time goes first.
///
/// | level | leaves out | instructions | frames |
/// | --- | --- | --- | --- |
/// | 4 full | nothing | 100 % | 43,548 |
/// | 3 no sequence | the sequence decision | 98 % | 43,529 |
/// | 2 no channel fit | the channel fit too | 74 % | 41,905 |
/// | 1 no feedback | decision feedback too | 64.5 % | 40,704 |
/// | 0 plain | overlap cancellation too (and with it the coherent retry) | 49 % | 38,491 |
///
/// (readsb executes 36 % of the full level's instructions on the same samples and finds
/// about 37,700 frames.)
///
/// A level only ever switches techniques off: one already off in the configured options
/// stays off at every level.
package struct DemodulatorLevel: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 0 (plain) to 4 (full).
    package let rawValue: Int

    /// The plain path only.
    package static let plain = DemodulatorLevel(clamping: 0)
    /// Every technique the options allow.
    package static let full = DemodulatorLevel(clamping: 4)
    /// Every level, from plain to full.
    package static let all = (plain.rawValue...full.rawValue).map { DemodulatorLevel(clamping: $0) }

    /// The level `value`, or the nearest one when out of range.
    package init(clamping value: Int) {
        rawValue = min(max(value, 0), 4)
    }

    /// The level `value`, or nil when there is none.
    package init?(_ value: Int) {
        guard (0...4).contains(value) else { return nil }
        rawValue = value
    }

    /// The next level down, or nil at the plain path.
    package var lower: DemodulatorLevel? { self == .plain ? nil : DemodulatorLevel(clamping: rawValue - 1) }

    /// The next level up, or nil at full.
    package var higher: DemodulatorLevel? { self == .full ? nil : DemodulatorLevel(clamping: rawValue + 1) }

    /// "full", "no sequence", "no channel fit", "no feedback" or "plain": for the log and
    /// the statistics line.
    package var description: String {
        ["plain", "no feedback", "no channel fit", "no sequence", "full"][rawValue]
    }

    /// `options` with the techniques this level leaves out switched off.
    package func restrict(_ options: StreamingDemodulator.Options) -> StreamingDemodulator.Options {
        var options = options
        if rawValue < 4 { options.sequenceRetry = false }
        if rawValue < 3 { options.channelFit = false }
        if rawValue < 2 { options.feedbackRetry = false }
        if rawValue < 1 {
            options.cancelOverlaps = false
            options.coherentRetry = false
        }
        return options
    }

    package static func < (left: DemodulatorLevel, right: DemodulatorLevel) -> Bool { left.rawValue < right.rawValue }
}
