import ModeS

/// The reply's envelope from the chips as decided, and the residual of the samples against
/// the fitted model: what each bit flip is weighed against.
extension ChannelFitSlicer {
    /// Writes the envelope of the chips as set (`ChipEnvelope`), at `phase`, over the first
    /// `span` samples, and returns its correlation coefficient with the `magnitudes`: a
    /// cheap first look that turns away most candidates (noise, the insides of other
    /// replies) before the samples are even loaded. Leaves the envelope past `span` as it
    /// was (`slice` clears it once a candidate passes). Each group of eight samples goes
    /// into the correlation's sums as it is written.
    func buildEnvelope(phase: Int, span: Int, correlatingWith magnitudes: UnsafePointer<UInt16>) -> Float {
        let env = envelope + Self.padding
        let table = chipEnvelope.row(phase)
        @inline(__always) func value(_ j: Int) -> Float { table.value(j) }
        // Eight lanes of partial sums, magnitudes scaled to about 1 (so squares stay far
        // from a float's limits), then the few samples left over.
        var m8 = SIMD8<Float>()
        var e8 = SIMD8<Float>()
        var mm8 = SIMD8<Float>()
        var ee8 = SIMD8<Float>()
        var me8 = SIMD8<Float>()
        let scale: Float = 1.0 / 65536
        var j = 0
        while j + 8 <= span {
            var e = SIMD8<Float>()
            for lane in 0..<8 {
                e[lane] = value(j + lane)
                env[j + lane] = e[lane]
            }
            let m = SIMD8<Float>(UnsafeRawPointer(magnitudes + j).loadUnaligned(as: SIMD8<UInt16>.self)) * scale
            m8 += m
            e8 += e
            mm8 += m * m
            ee8 += e * e
            me8 += m * e
            j += 8
        }
        var sm = m8.pairwiseSum
        var se = e8.pairwiseSum
        var smm = mm8.pairwiseSum
        var see = ee8.pairwiseSum
        var sme = me8.pairwiseSum
        while j < span {
            let e = value(j)
            env[j] = e
            let m = Float(magnitudes[j]) * scale
            sm += m
            se += e
            smm += m * m
            see += e * e
            sme += m * e
            j += 1
        }
        let n = Float(span)
        let covariance = sme - sm * se / n
        let vm = smm - sm * sm / n
        let ve = see - se * se / n
        return vm > 0 && ve > 0 ? covariance / (vm * ve).squareRoot() : 0
    }

    /// Zeros in the residual and its weights outside the `span` samples of the reply.
    @inline(__always)
    func clearPadding(span: Int) {
        let padded = 2 * (length + 2 * Self.padding)
        let before = 2 * Self.padding
        let after = 2 * (Self.padding + span)
        residual.update(repeating: 0, count: before)
        weights.update(repeating: 0, count: before)
        (residual + after).update(repeating: 0, count: padded - after)
        (weights + after).update(repeating: 0, count: padded - after)
    }

    /// Fills the residual of every sample under the context's model (zero where clipped)
    /// and returns the share of the samples' energy the model leaves unexplained.
    func computeResidual(_ samples: UnsafePointer<Float>, _ context: Context) -> Float {
        // Zeros around the span; every sample inside it is written below.
        clearPadding(span: context.span)
        // Four samples at a time: each tap's envelope values for four samples are one load,
        // and the sums run in four lanes, each addition not waiting for the one before.
        let env = UnsafePointer(envelope + Self.padding)
        let model = context.model
        var unexplained4 = SIMD4<Float>()
        var total4 = SIMD4<Float>()
        var j = 0
        while j + 4 <= context.span {
            var pr = SIMD4<Float>(repeating: model.real[Self.taps])
            var pi = SIMD4<Float>(repeating: model.imaginary[Self.taps])
            for tap in 0..<Self.taps {
                let x = UnsafeRawPointer(env + j + Self.precursors - tap).loadUnaligned(as: SIMD4<Float>.self)
                pr += model.real[tap] * x
                pi += model.imaginary[tap] * x
            }
            let y = UnsafeRawPointer(samples + 2 * j).loadUnaligned(as: SIMD8<Float>.self)
            let kept = .!clippedLanes(context.clipped + j)
            let zero = SIMD4<Float>()
            let rr = zero.replacing(with: y.evenHalf - pr, where: kept)
            let ri = zero.replacing(with: y.oddHalf - pi, where: kept)
            let w = zero.replacing(with: 1, where: kept)
            let at = 2 * (Self.padding + j)
            UnsafeMutableRawPointer(residual + at).storeBytes(
                of: SIMD8(rr[0], ri[0], rr[1], ri[1], rr[2], ri[2], rr[3], ri[3]), as: SIMD8<Float>.self)
            UnsafeMutableRawPointer(weights + at).storeBytes(
                of: SIMD8(w[0], w[0], w[1], w[1], w[2], w[2], w[3], w[3]), as: SIMD8<Float>.self)
            unexplained4 += rr * rr + ri * ri
            total4 += w * (y.evenHalf * y.evenHalf + y.oddHalf * y.oddHalf)
            j += 4
        }
        var unexplained = unexplained4.pairwiseSum
        var total = total4.pairwiseSum
        for j in j..<context.span {
            let r = residual + 2 * (Self.padding + j)
            guard !context.clipped[j] else {
                r[0] = 0
                r[1] = 0
                weights[2 * (Self.padding + j)] = 0
                weights[2 * (Self.padding + j) + 1] = 0
                continue
            }
            weights[2 * (Self.padding + j)] = 1
            weights[2 * (Self.padding + j) + 1] = 1
            let (pr, pi) = predict(context.model, at: j)
            let (yr, yi) = (samples[2 * j], samples[2 * j + 1])
            r[0] = yr - pr
            r[1] = yi - pi
            unexplained += r[0] * r[0] + r[1] * r[1]
            total += yr * yr + yi * yi
        }
        return total > 0 ? unexplained / total : 1
    }

    @inline(__always)
    func predict(_ model: ChannelTaps.Model, at j: Int) -> (Float, Float) {
        model.predict(ChannelTaps.regressors(envelope + Self.padding, at: j))
    }
}
