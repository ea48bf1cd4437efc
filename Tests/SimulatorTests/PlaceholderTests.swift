import Testing
@testable import Simulator

@Suite struct SimulatorPlaceholderTests {
    @Test func targetBuilds() { #expect(MemoryLayout<SimulatorInfo>.size == 0) }
}
