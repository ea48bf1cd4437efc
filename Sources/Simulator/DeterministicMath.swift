/// Elementary functions computed with plain IEEE-754 arithmetic only (no libm), so that a
/// recording made from a given seed is bit-identical on every machine and C library.
///
/// The accuracy (a few units in the last place) is far beyond what the simulation needs;
/// what matters is that every step is an exactly specified `+ - * /`, `rounded` or
/// `squareRoot`, which IEEE-754 defines to the bit.
package enum DeterministicMath {
    /// π to double precision.
    package static let pi = 3.141592653589793
    /// π/2 split in two parts (Cody–Waite) so that range reduction loses no precision.
    private static let halfPiHigh = 1.5707963267341256e+00
    private static let halfPiLow = 6.0771005065061922e-11
    /// ln 2 split in two parts for the same reason.
    private static let ln2High = 6.93147180369123816490e-01
    private static let ln2Low = 1.90821492927058770002e-10
    private static let ln10 = 2.302585092994045684

    /// sin x and cos x together (x in radians, meant for |x| below about 1e6).
    package static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        let k = (x * (2 / pi)).rounded()
        let r = (x - k * halfPiHigh) - k * halfPiLow
        let r2 = r * r
        // Taylor series on |r| <= π/4: the terms beyond r^17 are below 1e-17.
        var s = 1.0 / 355687428096000.0  // 1/17!
        s = s * r2 - 1.0 / 1307674368000.0
        s = s * r2 + 1.0 / 6227020800.0
        s = s * r2 - 1.0 / 39916800.0
        s = s * r2 + 1.0 / 362880.0
        s = s * r2 - 1.0 / 5040.0
        s = s * r2 + 1.0 / 120.0
        s = s * r2 - 1.0 / 6.0
        let sinR = r + r * r2 * s
        var c = 1.0 / 6402373705728000.0  // 1/18!
        c = c * r2 - 1.0 / 20922789888000.0
        c = c * r2 + 1.0 / 87178291200.0
        c = c * r2 - 1.0 / 479001600.0
        c = c * r2 + 1.0 / 3628800.0
        c = c * r2 - 1.0 / 40320.0
        c = c * r2 + 1.0 / 720.0
        c = c * r2 - 1.0 / 24.0
        c = c * r2 + 0.5
        let cosR = 1 - r2 * c
        switch Int(k.truncatingRemainder(dividingBy: 4) + 4) % 4 {
        case 0: return (sinR, cosR)
        case 1: return (cosR, -sinR)
        case 2: return (-sinR, -cosR)
        default: return (-cosR, sinR)
        }
    }

    /// sin x (radians).
    package static func sin(_ x: Double) -> Double { sinCos(x).sin }
    /// cos x (radians).
    package static func cos(_ x: Double) -> Double { sinCos(x).cos }

    /// Natural logarithm of a positive finite x (returns -infinity for 0 and nan below).
    package static func ln(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        var exponent = Double(x.exponent)
        var m = x.significand  // exactly x / 2^exponent, in [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            exponent += 1
        }
        // ln m = 2 atanh(s) with s = (m-1)/(m+1), |s| < 0.172: the odd series converges fast.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var p = 1.0 / 23
        for d in stride(from: 21.0, through: 3.0, by: -2.0) { p = p * s2 + 1 / d }
        let lnM = 2 * s + 2 * s * s2 * p
        return exponent * ln2High + (lnM + exponent * ln2Low)
    }

    /// Base-10 logarithm.
    package static func log10(_ x: Double) -> Double { ln(x) / ln10 }

    /// e^x.
    package static func exp(_ x: Double) -> Double {
        if x > 709 { return .infinity }
        if x < -745 { return 0 }
        let k = (x / ln2High).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        // Taylor series on |r| <= 0.35: 15 terms reach double precision.
        var p = 1.0
        for n in stride(from: 15.0, through: 1.0, by: -1.0) { p = 1 + p * r / n }
        let kk = Int(k)
        // Scale by 2^k in two steps so that intermediate results stay normal.
        let half = kk / 2
        return p * Double(sign: .plus, exponent: half, significand: 1)
            * Double(sign: .plus, exponent: kk - half, significand: 1)
    }

    /// 10^(db/10): a power ratio from decibels.
    package static func powerRatio(decibels db: Double) -> Double { exp(db / 10 * ln10) }

    /// 10·log10(ratio): decibels from a power ratio.
    package static func decibels(powerRatio ratio: Double) -> Double { 10 * log10(ratio) }

    /// Degrees to radians.
    @inline(__always)
    package static func radians(_ degrees: Double) -> Double { degrees * (pi / 180) }
}
