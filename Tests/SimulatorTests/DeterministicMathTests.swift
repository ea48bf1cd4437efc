import Foundation
import Testing

@testable import Simulator

/// The libm-free functions agree with the platform's to near double precision.
@Suite struct DeterministicMathTests {
    @Test func matchesPlatformMath() {
        var g = SeededGenerator(seed: 3)
        for _ in 0..<10_000 {
            let x = g.uniform(-50, 50)
            #expect(abs(DeterministicMath.sin(x) - Foundation.sin(x)) < 1e-14)
            #expect(abs(DeterministicMath.cos(x) - Foundation.cos(x)) < 1e-14)
            let p = Foundation.exp(g.uniform(-30, 30))
            #expect(abs(DeterministicMath.ln(p) - Foundation.log(p)) < 1e-13)
            let e = g.uniform(-20, 20)
            #expect(abs(DeterministicMath.exp(e) / Foundation.exp(e) - 1) < 1e-14)
        }
        #expect(DeterministicMath.ln(0) == -.infinity)
        #expect(DeterministicMath.ln(-1).isNaN)
    }

    @Test func generatorIsReproducibleAndRoughlyNormal() {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        var c = SeededGenerator(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
        var sum = 0.0
        var squares = 0.0
        let n = 200_000
        for _ in 0..<(n / 2) {
            let (x, y) = a.gaussianPair()
            sum += x + y
            squares += x * x + y * y
        }
        #expect(abs(sum / Double(n)) < 0.01)
        #expect(abs(squares / Double(n) - 1) < 0.02)
    }
}
