import ModeS

/// How strong each message arrives.
///
/// Either a fixed range (every message's SNR drawn uniformly in it: how the demodulator's
/// yield is measured per SNR bucket) or free-space spreading: the received power falls as
/// 1/d², so SNR = 16 dB − 20·log10(d / 100 km), plus the aircraft's own level offset and a
/// small per-message jitter (multipath, antenna pattern). Aircraft on the ground lose 12 dB
/// to obstructions. The result is capped at 25 dB, about where a dongle at this noise floor
/// starts to saturate.
package struct SignalLevelModel: Sendable {
    /// A fixed SNR range (dB), or nil to derive SNR from distance.
    package var fixedRange: ClosedRange<Double>?
    /// SNR (dB) of an average aircraft at 100 km.
    package var snrAt100km = 16.0
    /// Loss for aircraft on the ground, dB.
    package var groundLossDb = 12.0
    /// Standard deviation of the per-message jitter, dB.
    package var jitterDb = 0.7
    /// Upper and lower bounds of the distance-derived SNR, dB.
    package var cap = -5.0...25.0

    /// A model with a fixed range or, with nil, the distance model.
    package init(fixedRange: ClosedRange<Double>? = nil) {
        self.fixedRange = fixedRange
    }

    /// The SNR of one message (dB).
    package func snr(
        track: AircraftTrack, state: TrueAircraftState, receiver: GeoPoint, receiverAltitudeM: Double,
        generator: inout SeededGenerator
    ) -> Double {
        if let range = fixedRange {
            return generator.uniform(range.lowerBound, range.upperBound.nextUp)
        }
        let ground = receiver.distance(to: state.position)
        let height = state.altitudeBaroFt * 0.3048 - receiverAltitudeM
        let slantKm = max((ground * ground + height * height).squareRoot(), 50) / 1000
        var snr =
            snrAt100km - 20 * DeterministicMath.log10(slantKm / 100) + track.levelOffsetDb
            + jitterDb * generator.gaussian()
        if state.onGround { snr -= groundLossDb }
        return min(max(snr, cap.lowerBound), cap.upperBound)
    }
}
