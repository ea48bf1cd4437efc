/// A constant offset on I and Q: the converter's DC error (a dongle's familiar spike at the
/// centre frequency), which raises the magnitude of quiet samples and lets each reply's
/// magnitude depend on its carrier phase.
package struct DCOffset: ChannelStage, Equatable {
    /// Offset of I, LSB.
    package let i: Double
    /// Offset of Q, LSB.
    package let q: Double

    /// An offset of (`i`, `q`) LSB.
    package init(i: Double, q: Double) {
        self.i = i
        self.q = q
    }

    /// Adds the offset to `iq` in place.
    package mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        for index in stride(from: 0, to: iq.count - 1, by: 2) {
            iq[index] += i
            iq[index + 1] += q
        }
    }
}
