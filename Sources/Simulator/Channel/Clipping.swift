/// The converter's rails: each of I and Q is cut to ±`rail` LSB, as an 8-bit converter cuts
/// a strong reply's pulses flat at 0 and 255.
///
/// At the dongle's own scale the rail is 127.5 LSB (a cu8 code of 0 or 255); a lower rail
/// stands for a converter driven with more gain. Clipping flattens the tops of strong
/// pulses and, because it acts on I and Q separately, bends their magnitude with the carrier
/// phase.
package struct Clipping: ChannelStage {
    /// The rail, LSB from zero.
    package let rail: Double
    /// Components cut so far.
    package private(set) var clipped = 0

    /// Rails at ±`rail` LSB.
    package init(rail: Double) {
        self.rail = rail
    }

    /// Cuts `iq` in place.
    package mutating func apply(_ iq: UnsafeMutableBufferPointer<Double>, firstSample: Int) {
        var count = 0
        for index in 0..<iq.count {
            let value = iq[index]
            if value > rail {
                iq[index] = rail
                count += 1
            } else if value < -rail {
                iq[index] = -rail
                count += 1
            }
        }
        clipped += count
    }
}
