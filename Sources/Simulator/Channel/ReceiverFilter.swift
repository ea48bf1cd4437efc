/// The dongle's band limit and its ringing: a second-order low-pass (the R820T's IF filter
/// and the RTL2832U's decimation filter together, as one resonant section) applied to I and
/// Q alike.
///
/// A pulse through a resonant low-pass overshoots at its edges and rings on after it ends
/// for about one natural period; at the bandwidths of a dongle (a little under half the
/// sample rate) that ringing lands in the next half-microsecond chip, which is what makes a
/// strong reply's empty chips carry part of its pulses' level. The bandwidth is a fraction
/// of the sample rate because a dongle's decimation filter scales with the rate it runs at.
/// Signal and receiver noise pass through the same filter, as in a dongle (its noise is the
/// filtered noise of a wider band, so neighbouring samples' noise is correlated), and both
/// are then scaled so that the noise keeps its power (`forNoise`): the recording's noise
/// floor stays at 4 LSB, and a reply's SNR (set before the filter) gains what the filter
/// removes of the noise and loses what it removes of the reply.
///
/// The poles are the analogue ones mapped by z = e^{sT} (an all-pole section, its DC gain set
/// to 1), so the digital filter rings and decays exactly as the analogue one at the sampling
/// instants, even with its natural frequency close to half the sample rate, where a bilinear
/// transform would bend the poles towards z = −1 and ring for many samples.
package struct ReceiverFilter: ChannelStage {
    /// Natural frequency as a fraction of the sample rate (below 0.5).
    package let bandwidth: Double
    /// Damping ratio: 1 is critically damped (no ringing), 0.7 barely overshoots, 0.4 rings
    /// for about a cycle with a 25 % overshoot.
    package let damping: Double
    /// Factor on the output: 1 for the signal; for the noise, what keeps its power.
    package private(set) var scale = 1.0
    private let b0, a1, a2: Double
    // The last two outputs, per component.
    private var outI = (0.0, 0.0), outQ = (0.0, 0.0)

    /// A filter with natural frequency `bandwidth` × the sample rate and damping `damping`.
    package init(bandwidth: Double, damping: Double) {
        self.bandwidth = min(max(bandwidth, 0.01), 0.49)
        self.damping = max(damping, 0.05)
        // Poles s = ω(−ζ ± √(ζ² − 1)) per sample period (ω in radians per sample).
        let omega = 2 * DeterministicMath.pi * self.bandwidth
        let zeta = self.damping
        if zeta < 1 {
            let radius = DeterministicMath.exp(-zeta * omega)
            let angle = omega * (1 - zeta * zeta).squareRoot()
            a1 = -2 * radius * DeterministicMath.cos(angle)
            a2 = radius * radius
        } else {
            let spread = (zeta * zeta - 1).squareRoot()
            let p1 = DeterministicMath.exp(-omega * (zeta - spread))
            let p2 = DeterministicMath.exp(-omega * (zeta + spread))
            a1 = -(p1 + p2)
            a2 = p1 * p2
        }
        b0 = 1 + a1 + a2
    }

    /// The same filter with its output scaled so that white noise keeps its power
    /// (1 / the root of the sum of the squared impulse response).
    package func forNoise() -> ReceiverFilter {
        var probe = ReceiverFilter(bandwidth: bandwidth, damping: damping)
        var impulse = [Double](repeating: 0, count: 2 * 512)
        impulse[0] = 1
        impulse.withUnsafeMutableBufferPointer { probe.apply($0, firstSample: 0) }
        let energy = stride(from: 0, to: impulse.count, by: 2).reduce(0.0) { $0 + impulse[$1] * impulse[$1] }
        var noise = ReceiverFilter(bandwidth: bandwidth, damping: damping)
        noise.scale = 1 / energy.squareRoot()
        return noise
    }

    /// Filters `iq` in place.
    package mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        for index in stride(from: 0, to: iq.count - 1, by: 2) {
            let i = iq[index]
            let q = iq[index + 1]
            let yi = b0 * i - a1 * outI.0 - a2 * outI.1
            let yq = b0 * q - a1 * outQ.0 - a2 * outQ.1
            outI = (yi, outI.0)
            outQ = (yq, outQ.0)
            iq[index] = yi * scale
            iq[index + 1] = yq * scale
        }
    }
}
