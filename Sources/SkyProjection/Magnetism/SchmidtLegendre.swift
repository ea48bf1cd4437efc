/// The Schmidt semi-normalised associated Legendre functions P(n, m) of cos θ, for every
/// degree and order up to a maximum, with what the field synthesis needs of them: their
/// derivative by θ and their quotient by sin θ. θ is the geocentric colatitude (90° minus the
/// geocentric latitude).
///
/// Schmidt semi-normalisation is the convention geomagnetic models publish their Gauss
/// coefficients in; a model is only right with the functions it was fitted with.
///
/// How they are computed: the functions are written as P(n, m) = S(n, m) · sinᵐθ · Q(n, m),
/// where S(n, m) is the Schmidt factor that turns the Gauss-normalised function into the
/// Schmidt one, and Q(n, m) is a polynomial in cos θ (Q(m, m) = 1, since the Gauss-normalised
/// P(m, m) is sinᵐθ). Q follows the usual three-term recursion in the degree,
/// Q(n, m) = cos θ · Q(n−1, m) − K(n, m) · Q(n−2, m), and its θ-derivative R the recursion
/// differentiated. Keeping the sinᵐθ factor apart is the pole handling: the east component of
/// the field needs P(n, m) / sin θ, which near a pole is a quotient of two vanishing numbers,
/// but here it is S · sinᵐ⁻¹θ · Q, a product with no division, finite and exact at the pole
/// itself. So no latitude is nudged away from the pole and no case is special.
package struct SchmidtLegendre: Sendable {
    /// The highest degree computed.
    package let maxDegree: Int
    /// P(n, m), at `index(n, m)`.
    package private(set) var p: [Double]
    /// dP(n, m)/dθ, at `index(n, m)`.
    package private(set) var dpByTheta: [Double]
    /// P(n, m) / sin θ for m ≥ 1 (0 for m = 0, where the field never needs it), at
    /// `index(n, m)`. Finite at the poles, where it is the limit of the quotient.
    package private(set) var pBySinTheta: [Double]

    /// Where P(n, m) is in the arrays: degree by degree, order by order within a degree.
    package static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// The functions up to `maxDegree` at the colatitude whose sine is `sinTheta` (≥ 0) and
    /// cosine `cosTheta`. Taking the sine and cosine rather than the angle keeps the pole
    /// exact: sin θ = 0 there, not the 6e-17 a computed sin(π/2 − π/2) may give.
    package init(maxDegree: Int, sinTheta: Double, cosTheta: Double) {
        self.maxDegree = maxDegree
        let count = Self.index(maxDegree, maxDegree) + 1
        var q = [Double](repeating: 0, count: count)
        var r = [Double](repeating: 0, count: count)
        for m in 0...maxDegree {
            q[Self.index(m, m)] = 1
            guard m < maxDegree else { break }
            for n in (m + 1)...maxDegree {
                // K(n, m) = ((n−1)² − m²) / ((2n−1)(2n−3)); for n = m + 1 the term it
                // multiplies, Q(n−2, m), does not exist (it is 0).
                let k = Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
                let q2 = n - 2 >= m ? q[Self.index(n - 2, m)] : 0
                let r2 = n - 2 >= m ? r[Self.index(n - 2, m)] : 0
                let q1 = q[Self.index(n - 1, m)]
                q[Self.index(n, m)] = cosTheta * q1 - k * q2
                r[Self.index(n, m)] = -sinTheta * q1 + cosTheta * r[Self.index(n - 1, m)] - k * r2
            }
        }
        p = [Double](repeating: 0, count: count)
        dpByTheta = p
        pBySinTheta = p
        let schmidt = Self.schmidtFactors(maxDegree: maxDegree)
        // sinᵐ⁻¹θ, built up order by order (never a pow of 0 to a negative power).
        var sinPowerBelow = 1.0
        for m in 0...maxDegree {
            let sinPower = m == 0 ? 1 : sinPowerBelow * sinTheta
            for n in m...maxDegree {
                let i = Self.index(n, m)
                p[i] = schmidt[i] * sinPower * q[i]
                // d/dθ (sinᵐθ · Q) = m · sinᵐ⁻¹θ · cos θ · Q + sinᵐθ · dQ/dθ.
                let fromPower = m == 0 ? 0 : Double(m) * sinPowerBelow * cosTheta * q[i]
                dpByTheta[i] = schmidt[i] * (fromPower + sinPower * r[i])
                pBySinTheta[i] = m == 0 ? 0 : schmidt[i] * sinPowerBelow * q[i]
            }
            if m > 0 { sinPowerBelow *= sinTheta }
        }
    }

    /// The factors S(n, m) that turn Gauss-normalised functions into Schmidt semi-normalised
    /// ones: S(0, 0) = 1, S(n, 0) = S(n−1, 0) · (2n−1)/n, and
    /// S(n, m) = S(n, m−1) · √((n−m+1)(δ(m,1)+1) / (n+m)), the δ term being the √2 that
    /// semi-normalisation gives every order above 0.
    package static func schmidtFactors(maxDegree: Int) -> [Double] {
        var s = [Double](repeating: 0, count: index(maxDegree, maxDegree) + 1)
        s[0] = 1
        guard maxDegree >= 1 else { return s }
        for n in 1...maxDegree {
            s[index(n, 0)] = s[index(n - 1, 0)] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let twice = m == 1 ? 2.0 : 1.0
                s[index(n, m)] = s[index(n, m - 1)] * (Double(n - m + 1) * twice / Double(n + m)).squareRoot()
            }
        }
        return s
    }
}
