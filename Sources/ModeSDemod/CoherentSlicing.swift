import ModeS

/// Coherent bit decisions, on the carrier model of `ReplyCanceller`.
///
/// Where a second reply of similar strength overlaps, the magnitude of a pulse that both
/// carry depends on their relative phase and can drop below the other's lone pulse in the
/// empty chip, so magnitude decisions fail. Projected on the stronger reply's own carrier,
/// the weaker one adds the same amount to both chips of a bit when it covers both, and
/// less than the pulse when it covers one: the decision survives any weaker interferer as
/// long as the carrier is known well enough (in tests, replies down to 3 dB apart).
extension ReplyCanceller {
    /// Decides the bits of the reply at `raw` again, coherently: the carrier is fitted
    /// from the samples with `bits` as the envelope (as for a cancellation), and each bit
    /// is the sign of its matched-filter score projected on that carrier. Writes each bit's
    /// |score| (on the magnitude scale) to `confidence`; nil when the format changed length.
    ///
    /// `bits` (the magnitude decisions) are mostly right outside the overlap, which is
    /// enough for the fit; a second round refits with the coherent decisions.
    func coherentBits(
        raw: UnsafeRawPointer, offsetTenths: Int, bits start: ModeSBits,
        kernels table: UnsafePointer<ReplyKernels.BitKernel>,
        confidence: UnsafeMutablePointer<Int32>
    ) -> ModeSBits? {
        let span = kernels.span(bitCount: start.bitCount)
        precondition(span <= maximumWindow, "reply longer than the window")
        load(raw, count: span)
        var bits = start
        let scale = Float(MagnitudeConverter.fullScale)
        for _ in 0..<2 {
            buildEnvelope(bits, originTenths: offsetTenths, span: span)
            var omega = coarseFrequency(iq, clipped, span: span)
            for _ in 0..<2 { omega += frequencyCorrection(iq, clipped, span: span, omega: omega) }
            derotate(iq, span: span, omega: omega)
            let (re, im, energy) = projection(clipped, span: span)
            let norm = (re * re + im * im).squareRoot()
            guard energy > 0, norm > 0 else { return nil }
            // The unit phasor of the carrier's phase: scores are projected on it.
            let (cr, ci) = (re / norm, im / norm)
            var next = ModeSBits(bitCount: bits.bitCount)
            for bit in 0..<bits.bitCount {
                // The bit's matched filter (first chip minus second) over complex samples.
                let kernel = table[bit]
                let d = derotated + 2 * Int(kernel.offset)
                let (w0, w1, w2, w3) = (Float(kernel.w0), Float(kernel.w1), Float(kernel.w2), Float(kernel.w3))
                let zr = w0 * d[0] + w1 * d[2] + w2 * d[4] + w3 * d[6]
                let zi = w0 * d[1] + w1 * d[3] + w2 * d[5] + w3 * d[7]
                let score = zr * cr + zi * ci
                if score > 0 { next.flipBit(bit + 1) }
                // A score that is not a number (it cannot be, from finite samples) has no confidence.
                confidence[bit] = score.isFinite ? Int32(min(abs(score) * scale, Float(Int32.max / 2))) : 0
            }
            // A changed length would need other samples: give up.
            guard (next.downlinkFormat >= 16) == (bits.downlinkFormat >= 16) else { return nil }
            if next == bits { break }
            bits = next
        }
        return bits
    }
}
