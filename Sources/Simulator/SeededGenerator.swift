/// The simulator's only source of randomness: xoshiro256** seeded through SplitMix64.
///
/// The system generator differs between runs and platforms; this one depends only on the
/// seed, so the same seed gives the same recording everywhere. Independent parts of a
/// simulation (the sky, each aircraft's schedule, the noise) draw from separate streams
/// made with `stream(_:)`, so changing one part does not reshuffle the others.
package struct SeededGenerator: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole output is determined by `seed`.
    package init(seed: UInt64) {
        var state = seed
        func splitMix() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    /// The next 64 random bits.
    @inline(__always)
    package mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A new generator for an independent sub-stream, identified by `label`.
    package func stream(_ label: UInt64) -> SeededGenerator {
        var copy = self
        return SeededGenerator(seed: copy.next() ^ (label &* 0xD6E8_FEB8_6659_FD93))
    }

    /// Uniform in [0, 1), with 53 random bits.
    @inline(__always)
    package mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [low, high).
    @inline(__always)
    package mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * uniform() }

    /// Uniform integer in 0..<bound (bound > 0), by rejection so that it is exactly uniform.
    package mutating func integer(below bound: Int) -> Int {
        precondition(bound > 0)
        let n = UInt64(bound)
        let limit = UInt64.max - UInt64.max % n
        while true {
            let value = next()
            if value < limit { return Int(value % n) }
        }
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool { uniform() < p }

    /// One element of a non-empty array, uniformly.
    package mutating func pick<T>(_ items: [T]) -> T { items[integer(below: items.count)] }

    /// Two independent standard normal values (Marsaglia's polar form of Box–Muller: no
    /// trigonometry, one logarithm and one square root per pair).
    @inline(__always)
    package mutating func gaussianPair() -> (Double, Double) {
        while true {
            let u = Double(Int64(bitPattern: next()) >> 11) * 0x1p-52  // [-1, 1)
            let v = Double(Int64(bitPattern: next()) >> 11) * 0x1p-52
            let s = u * u + v * v
            if s > 0, s < 1 {
                let factor = (-2 * DeterministicMath.ln(s) / s).squareRoot()
                return (u * factor, v * factor)
            }
        }
    }

    /// One standard normal value.
    package mutating func gaussian() -> Double { gaussianPair().0 }
}
