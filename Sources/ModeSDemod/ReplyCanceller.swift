import FoundationEssentials
import IQ
import ModeS

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes one decoded reply from the IQ signal, so that a weaker reply it overlapped can be
/// demodulated from what is left.
///
/// Two replies that overlap add as complex fields. In magnitudes the stronger one's pulses
/// bury the weaker one's bits wherever they meet, and the weaker reply is lost. But once the
/// stronger reply is decoded, everything about it is known except its carrier: the bits fix
/// which chips carry a pulse, the preamble fixes the timing to a tenth of a sample, and a
/// transponder's carrier has a constant amplitude and a constant frequency offset (up to tens
/// of kHz from the receiver's tuning) across a reply. So the reply is modelled as
/// `a · envelope(n) · e^{iωn}`, `a` and `ω` are estimated from the samples themselves, and
/// the model is subtracted. The residual's magnitudes then go through the ordinary
/// demodulator, with every one of its checks.
///
/// - The envelope of a sample is the share of its period covered by "on" chips: the same
///   rectangular-chip model as `ReplyKernels`.
/// - ω: a first guess from the mean phase step between neighbouring samples inside pulses,
///   refined by fitting a straight line through the carrier phase of eight stretches of the
///   reply (the first guess alone is too noisy over a 120 µs reply). Two rounds.
/// - a: least squares over the reply's samples once the carrier is derotated.
/// - Samples at full scale (clipped by the receiver) do not follow the model and take no part
///   in the estimates; a clipped component the model also puts at full scale is left
///   silent in the residual rather than holding the model's excess, which would otherwise
///   look like pulses of a reply that is not there and hide the one that is.
///
/// The same carrier model also decides the bits of a reply coherently (`coherentBits`, in
/// CoherentSlicing.swift).
///
/// A class only to own its scratch buffers; one per demodulator, used from its thread.
final class ReplyCanceller {
    private let format: SampleFormat
    let kernels: ReplyKernels
    /// The largest window `residual` accepts, in samples.
    let maximumWindow: Int
    /// Interleaved I/Q of the window, full scale 1.0.
    let iq: UnsafeMutablePointer<Float>
    /// Whether each sample of the window was clipped (a component at full scale).
    let clipped: UnsafeMutablePointer<Bool>
    /// The reply's envelope per sample of its span (0...1).
    let envelope: UnsafeMutablePointer<Float>
    /// The reply's samples with its carrier's rotation removed.
    let derotated: UnsafeMutablePointer<Float>
    /// e^{−iωn} for the carrier step ω of the last `fillRotation`, per sample of the window:
    /// real parts in `cosines`, imaginary parts in `sines`.
    private let cosines: UnsafeMutablePointer<Float>
    private let sines: UnsafeMutablePointer<Float>
    /// The residual magnitudes, on `MagnitudeConverter`'s scale, padded with zeros so the
    /// demodulator can read a whole reply span past any start.
    private let output: UnsafeMutablePointer<UInt16>
    private let outputCapacity: Int

    /// A normalised component at least this large was clipped by the receiver (cu8 codes 0
    /// and 255 give ±1.0, a cs16 full scale ±0.99997).
    static let clipLevel = 0.999

    /// Stretches of the reply whose carrier phases are fitted with a line.
    private static let segments = 8

    /// The chips of the reply being cancelled and the envelope they make, one row per
    /// tenth (0 ... 9) of a sample its first chip starts into its first sample.
    private let chipEnvelope: ChipEnvelope

    init(format: SampleFormat, kernels: ReplyKernels, maximumWindow: Int) {
        self.format = format
        self.kernels = kernels
        self.maximumWindow = maximumWindow
        iq = .allocate(capacity: 2 * maximumWindow)
        iq.initialize(repeating: 0, count: 2 * maximumWindow)
        clipped = .allocate(capacity: maximumWindow)
        clipped.initialize(repeating: false, count: maximumWindow)
        envelope = .allocate(capacity: kernels.replySpan + 2)
        envelope.initialize(repeating: 0, count: kernels.replySpan + 2)
        derotated = .allocate(capacity: 2 * kernels.replySpan + 4)
        derotated.initialize(repeating: 0, count: 2 * kernels.replySpan + 4)
        // Whole groups of eight: `fillRotation` writes eight samples at a time.
        cosines = .allocate(capacity: maximumWindow + 8)
        cosines.initialize(repeating: 1, count: maximumWindow + 8)
        sines = .allocate(capacity: maximumWindow + 8)
        sines.initialize(repeating: 0, count: maximumWindow + 8)
        outputCapacity = maximumWindow + kernels.replySpan + 16
        output = .allocate(capacity: outputCapacity)
        output.initialize(repeating: 0, count: outputCapacity)
        // Samples a long reply's chips can touch from a start within the first sample.
        let chip = kernels.sampleRate.tenthsPerChip
        chipEnvelope = ChipEnvelope(
            tenthsPerChip: chip, origins: Array(0..<10),
            length: (9 + ChipEnvelope.chips * chip) / 10 + 1)
    }

    deinit {
        iq.deallocate()
        clipped.deallocate()
        envelope.deallocate()
        derotated.deallocate()
        cosines.deallocate()
        sines.deallocate()
        output.deallocate()
    }

    /// The residual magnitudes of a window of `count` samples once the reply `bits`,
    /// starting at sample `replyStart` of the window with a sub-sample offset of
    /// `offsetTenths`, is subtracted. `raw` holds the window's samples in the stream's
    /// format, `magnitudes` their magnitudes (outside the reply they are the residual). The
    /// result holds `count` samples followed by a reply span of zeros; it stays valid until
    /// the next call.
    func residual(
        raw: UnsafeRawPointer, magnitudes: UnsafePointer<UInt16>, count: Int, replyStart: Int,
        offsetTenths: Int, bits: ModeSBits
    ) -> UnsafePointer<UInt16> {
        precondition(count <= maximumWindow, "cancellation window too large")
        // The model starts one sample early (when there is one) so that it can move
        // earlier as well as later (`bestStartProjection`).
        let lead = min(1, replyStart)
        let base = replyStart - lead
        let span = min(kernels.span(bitCount: bits.bitCount) + lead + 1, count - base)
        load(raw + base * format.bytesPerSample, count: span)
        let nominal = 10 * lead + offsetTenths
        buildEnvelope(bits, originTenths: nominal, span: span)
        let reply = iq
        let replyClipped = clipped
        var omega = coarseFrequency(reply, replyClipped, span: span)
        for _ in 0..<2 { omega += frequencyCorrection(reply, replyClipped, span: span, omega: omega) }
        derotate(reply, span: span, omega: omega)
        let (re, im, energy) = bestStartProjection(nominal: nominal, span: span)
        subtractModel(amplitude: energy > 0 ? (re / energy, im / energy) : (0, 0), span: span)
        output.update(from: magnitudes, count: count)
        let scale = Float(MagnitudeConverter.fullScale)
        for n in 0..<span {
            let i = iq[2 * n]
            let q = iq[2 * n + 1]
            output[base + n] = MagnitudeConverter.saturate((i * i + q * q).squareRoot() * scale)
        }
        (output + count).update(repeating: 0, count: outputCapacity - count)
        return UnsafePointer(output)
    }

    /// The start of the reply's model that fits the derotated samples best, searched in
    /// tenths of a sample around `nominal`, with its projection on the samples (Σ re, Σ im
    /// and the model's energy); leaves `envelope` built for that start.
    ///
    /// The preamble fixes the start only to about a fifth of a sample, and a model off by
    /// that much leaves a fifth of the reply at every pulse edge: enough to bury a reply
    /// 10 dB weaker again. So the start is searched around the decoded one, keeping the one
    /// the model fits best (the least-squares fit's explained energy |Σ e·y|² / Σ e², with y
    /// the derotated samples).
    @inline(__always)
    private func bestStartProjection(nominal: Int, span: Int) -> (Float, Float, Float) {
        let replyClipped = clipped
        // Steps of two tenths first, then one tenth either side of the best: the preamble's
        // own error stays within about two tenths, so a wider start finds nothing new.
        // The best start's projection is kept: computing it again gives the same sums.
        var best = (origin: nominal, fit: -Float.infinity, projection: (Float, Float, Float)?.none)
        // The start the envelope is built for now: each is built once per trial at most.
        var built = nominal
        func tryOrigin(_ origin: Int) {
            guard origin >= 0 else { return }
            if origin != built { fillEnvelope(originTenths: origin, span: span) }
            built = origin
            let (re, im, energy) = projection(replyClipped, span: span)
            let fit = energy > 0 ? (re * re + im * im) / energy : 0
            if fit > best.fit { best = (origin, fit, (re, im, energy)) }
        }
        for delta in stride(from: -2, through: 2, by: 2) { tryOrigin(nominal + delta) }
        let coarse = best.origin
        tryOrigin(coarse - 1)
        tryOrigin(coarse + 1)
        if best.origin != built { fillEnvelope(originTenths: best.origin, span: span) }
        return best.projection ?? projection(replyClipped, span: span)
    }

    /// Subtracts the model a·envelope·e^{iωn} (`amplitude` a, complex) from the window's
    /// samples in `iq`: the conjugates of the rotation `derotate` used.
    @inline(__always)
    private func subtractModel(amplitude: (Float, Float), span: Int) {
        let (ar, ai) = amplitude
        let reply = iq
        let clip = Float(Self.clipLevel)
        for n in 0..<span {
            let e = envelope[n]
            let (c, s) = (cosines[n], -sines[n])
            let (mi, mq) = (e * (ar * c - ai * s), e * (ar * s + ai * c))
            let (i, q) = (reply[2 * n], reply[2 * n + 1])
            // A clipped component lost whatever lay beyond full scale, so subtracting the
            // model there leaves a large false residual (the model's excess) that buries
            // the weaker reply again. Where the model alone reaches full scale, the other
            // reply cannot be told apart in that component: it is set to silence instead.
            reply[2 * n] = abs(i) >= clip && abs(mi) >= clip ? 0 : i - mi
            reply[2 * n + 1] = abs(q) >= clip && abs(mq) >= clip ? 0 : q - mq
        }
    }

    /// Converts the window to normalised floats and marks clipped samples.
    func load(_ raw: UnsafeRawPointer, count: Int) {
        switch format {
        case .cu8:
            for n in 0..<count {
                let i = raw.load(fromByteOffset: 2 * n, as: UInt8.self)
                let q = raw.load(fromByteOffset: 2 * n + 1, as: UInt8.self)
                iq[2 * n] = (Float(i) - 127.5) / 127.5
                iq[2 * n + 1] = (Float(q) - 127.5) / 127.5
                clipped[n] = format.isClipped(raw, at: n)
            }
        case .cs16:
            for n in 0..<count {
                let i = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * n, as: Int16.self))
                let q = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * n + 2, as: Int16.self))
                iq[2 * n] = Float(i) / 32768
                iq[2 * n + 1] = Float(q) / 32768
                clipped[n] = format.isClipped(raw, at: n)
            }
        case .cf32:
            for n in 0..<count {
                // Non-finite values are silence, as in the magnitudes the detector saw.
                let i = MagnitudeConverter.cf32Component(raw, byteOffset: 8 * n)
                let q = MagnitudeConverter.cf32Component(raw, byteOffset: 8 * n + 4)
                iq[2 * n] = i
                iq[2 * n + 1] = q
                clipped[n] = format.isClipped(raw, at: n)
            }
        }
    }

    /// The share of each sample of the reply's span covered by its "on" chips, for a reply
    /// whose first chip starts `originTenths` (at least 0) tenths of a sample into the span.
    /// Computed sample by sample from the chips' table (`ChipEnvelope`), at the start's
    /// tenth, shifted by its whole samples.
    func buildEnvelope(_ bits: ModeSBits, originTenths: Int, span: Int) {
        chipEnvelope.set(bits)
        fillEnvelope(originTenths: originTenths, span: span)
    }

    /// `buildEnvelope` for the bits its last call set, at another origin.
    private func fillEnvelope(originTenths: Int, span: Int) {
        precondition(originTenths >= 0, "a reply cannot start before its span")
        let shift = originTenths / 10
        let table = chipEnvelope.row(originTenths % 10)
        let first = min(span, shift)
        let last = min(span, shift + chipEnvelope.length)
        envelope.update(repeating: 0, count: first)
        for sample in first..<last { envelope[sample] = table.value(sample - shift) }
        (envelope + last).update(repeating: 0, count: span - last)
    }

    /// The carrier's phase step per sample, from neighbouring samples that both lie inside
    /// pulses: r(n)·conj(r(n−1)) has the phase ω whatever the carrier's own phase.
    func coarseFrequency(
        _ reply: UnsafeMutablePointer<Float>, _ replyClipped: UnsafeMutablePointer<Bool>,
        span: Int
    ) -> Double {
        // Four pairs at a time: iq[n ... n + 3] and iq[n − 1 ... n + 2] are two loads of
        // eight floats. Which pairs take part follows the bits, as good as random to a
        // branch predictor, so the others weigh 0 rather than being skipped.
        var sumRe = SIMD4<Float>()
        var sumIm = SIMD4<Float>()
        var n = 1
        while n + 4 <= span {
            let now = UnsafeRawPointer(reply + 2 * n).loadUnaligned(as: SIMD8<Float>.self)
            let before = UnsafeRawPointer(reply + 2 * n - 2).loadUnaligned(as: SIMD8<Float>.self)
            let product =
                UnsafeRawPointer(envelope + n).loadUnaligned(as: SIMD4<Float>.self)
                * UnsafeRawPointer(envelope + n - 1).loadUnaligned(as: SIMD4<Float>.self)
            let clipped = clippedLanes(replyClipped + n) .| clippedLanes(replyClipped + n - 1)
            let w = product.replacing(with: 0, where: product .<= 0.5 .| clipped)
            let (i1, q1, i0, q0) = (now.evenHalf, now.oddHalf, before.evenHalf, before.oddHalf)
            sumRe += w * (i1 * i0 + q1 * q0)
            sumIm += w * (q1 * i0 - i1 * q0)
            n += 4
        }
        var (re, im) = (sumRe.pairwiseSum, sumIm.pairwiseSum)
        for k in n..<span where !replyClipped[k] && !replyClipped[k - 1] {
            let w = envelope[k] * envelope[k - 1]
            guard w > 0.5 else { continue }
            let (i1, q1, i0, q0) = (reply[2 * k], reply[2 * k + 1], reply[2 * k - 2], reply[2 * k - 1])
            re += w * (i1 * i0 + q1 * q0)
            im += w * (q1 * i0 - i1 * q0)
        }
        return re == 0 && im == 0 ? 0 : Double(atan2f(im, re))
    }

    /// How much to add to `omega`: the slope of a weighted straight line through the
    /// carrier phases of `segments` stretches of the reply, once derotated by `omega`.
    func frequencyCorrection(
        _ reply: UnsafeMutablePointer<Float>, _ replyClipped: UnsafeMutablePointer<Bool>,
        span: Int, omega: Double
    ) -> Double {
        let length = span / Self.segments
        guard length > 0 else { return 0 }
        fillRotation(omega: omega, span: span)
        var previous: Double?
        var sw = 0.0
        var sx = 0.0
        var sy = 0.0
        var sxx = 0.0
        var sxy = 0.0
        for segment in 0..<Self.segments {
            var sumRe = SIMD4<Float>()
            var sumIm = SIMD4<Float>()
            var n = segment * length
            let end = n + length
            while n + 4 <= end {
                let e = weights(n, replyClipped)
                let y = UnsafeRawPointer(reply + 2 * n).loadUnaligned(as: SIMD8<Float>.self)
                let c = UnsafeRawPointer(cosines + n).loadUnaligned(as: SIMD4<Float>.self)
                let s = UnsafeRawPointer(sines + n).loadUnaligned(as: SIMD4<Float>.self)
                let (i, q) = (y.evenHalf, y.oddHalf)
                sumRe += e * (i * c - q * s)
                sumIm += e * (i * s + q * c)
                n += 4
            }
            var (re, im) = (Double(sumRe.pairwiseSum), Double(sumIm.pairwiseSum))
            for k in n..<end where !replyClipped[k] {
                let e = Double(envelope[k])
                let (i, q, c, s) = (
                    Double(reply[2 * k]), Double(reply[2 * k + 1]), Double(cosines[k]), Double(sines[k])
                )
                re += e * (i * c - q * s)
                im += e * (i * s + q * c)
            }
            let weight = (re * re + im * im).squareRoot()
            guard weight > 0 else { continue }
            var angle = atan2(im, re)
            // Unwrap against the previous stretch: the remaining error of ω moves the phase
            // by well under π from one stretch to the next.
            if let previous {
                while angle - previous > .pi { angle -= 2 * .pi }
                while angle - previous < -.pi { angle += 2 * .pi }
            }
            previous = angle
            // Weighted least squares of phase against the stretch's centre sample.
            let x = (Double(segment) + 0.5) * Double(length)
            sw += weight
            sx += weight * x
            sy += weight * angle
            sxx += weight * x * x
            sxy += weight * x * angle
        }
        let denominator = sw * sxx - sx * sx
        guard denominator > 0 else { return 0 }
        return (sw * sxy - sx * sy) / denominator
    }

    /// Writes the reply's samples with the carrier rotation e^{−iωn} removed to `derotated`.
    func derotate(_ reply: UnsafeMutablePointer<Float>, span: Int, omega: Double) {
        fillRotation(omega: omega, span: span)
        for n in 0..<span {
            let (i, q, c, s) = (reply[2 * n], reply[2 * n + 1], cosines[n], sines[n])
            derotated[2 * n] = i * c - q * s
            derotated[2 * n + 1] = i * s + q * c
        }
    }

    /// Fills `cosines` and `sines` with e^{−iωn} for the first `span` samples (rounded up
    /// to eight). A phasor turned one sample at a time makes every sample wait for the one
    /// before; here eight lanes, started at n = 0 … 7, each turn by 8ω, so the loops that
    /// read the table run without that chain. The lanes start from products of e^{−iω} in
    /// doubles, and a float phasor turned a few dozen times stays within a few millionths
    /// of the unit circle.
    private func fillRotation(omega: Double, span: Int) {
        let (stepC, stepS) = (cos(omega), -sin(omega))
        var c = SIMD8<Float>()
        var s = SIMD8<Float>()
        var (lc, ls) = (1.0, 0.0)
        for lane in 0..<8 {
            c[lane] = Float(lc)
            s[lane] = Float(ls)
            (lc, ls) = (lc * stepC - ls * stepS, ls * stepC + lc * stepS)
        }
        // (lc, ls) is now e^{−8iω}.
        let (turnC, turnS) = (SIMD8(repeating: Float(lc)), SIMD8(repeating: Float(ls)))
        var n = 0
        while n < span {
            UnsafeMutableRawPointer(cosines + n).storeBytes(of: c, as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(sines + n).storeBytes(of: s, as: SIMD8<Float>.self)
            (c, s) = (c * turnC - s * turnS, s * turnC + c * turnS)
            n += 8
        }
    }

    /// Σ envelope·y (complex) and Σ envelope² over the unclipped samples: the least-squares
    /// amplitude is their ratio.
    func projection(_ replyClipped: UnsafeMutablePointer<Bool>, span: Int) -> (Float, Float, Float) {
        // Four samples at a time, in four lanes of sums (see `weights`).
        var re = SIMD4<Float>()
        var im = SIMD4<Float>()
        var energy = SIMD4<Float>()
        var n = 0
        while n + 4 <= span {
            let e = weights(n, replyClipped)
            let y = UnsafeRawPointer(derotated + 2 * n).loadUnaligned(as: SIMD8<Float>.self)
            re += e * y.evenHalf
            im += e * y.oddHalf
            energy += e * e
            n += 4
        }
        var sums = (re.pairwiseSum, im.pairwiseSum, energy.pairwiseSum)
        for k in n..<span where !replyClipped[k] {
            let e = envelope[k]
            sums.0 += e * derotated[2 * k]
            sums.1 += e * derotated[2 * k + 1]
            sums.2 += e * e
        }
        return sums
    }

    /// The envelope of samples `n ... n + 3`, 0 where a sample was clipped: the weights
    /// of sums taken four samples at a time, in four lanes, so that each addition need not
    /// wait for the one before.
    @inline(__always)
    private func weights(_ n: Int, _ replyClipped: UnsafeMutablePointer<Bool>) -> SIMD4<Float> {
        let e = UnsafeRawPointer(envelope + n).loadUnaligned(as: SIMD4<Float>.self)
        return e.replacing(with: 0, where: clippedLanes(replyClipped + n))
    }
}
