import ModeS

/// Decibel arithmetic without a C math library, so `ModeS` stays free of platform imports.
package enum Decibels {
    /// 20·log10(amplitude / fullScale): the level of an amplitude in dB relative to full
    /// scale (0 dBFS is the loudest sample the input can hold). Non-positive input gives
    /// -infinity.
    package static func fromAmplitude(_ amplitude: Double, fullScale: Double) -> Double {
        guard amplitude > 0, fullScale > 0 else { return -.infinity }
        return 20 * log10(amplitude / fullScale)
    }

    /// 10·log10(power): the level of a power relative to full scale (1.0) in dB. Non-positive
    /// input gives -infinity.
    package static func fromPower(_ power: Double) -> Double {
        guard power > 0 else { return -.infinity }
        return 10 * log10(power)
    }

    /// The base-10 logarithm of a positive finite `x`.
    package static func log10(_ x: Double) -> Double {
        naturalLog(x) / 2.302585092994046
    }

    /// ln(x) = e·ln 2 + ln(s) for x = s·2^e with s in [1, 2), and ln(s) = 2·atanh(z) with
    /// z = (s−1)/(s+1) ≤ 1/3, whose odd power series converges to double precision in a
    /// dozen terms.
    static func naturalLog(_ x: Double) -> Double {
        let exponent = Double(x.exponent)
        let significand = x.significand
        let z = (significand - 1) / (significand + 1)
        let z2 = z * z
        var term = z
        var sum = 0.0
        var k = 1.0
        for _ in 0..<16 {
            sum += term / k
            term *= z2
            k += 2
        }
        return exponent * 0.6931471805599453 + 2 * sum
    }
}
