import Foundation
import Testing

@testable import aviator_adsb

extension EndToEnd {
    /// The start-up check of the processor against the instructions the demodulator was
    /// compiled for.
    @Suite struct ProcessorCheckTests {
        /// The start of a `/proc/cpuinfo` entry with `flags` as given.
        private static func cpuinfo(flags: String) -> String {
            "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test\nflags\t\t: \(flags)\nbugs\t\t: none\n"
        }

        @Test func aProcessorWithTheFlagsPasses() {
            let modern =
                "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 "
                + "ht syscall nx lm constant_tsc pni ssse3 fma cx16 sse4_1 sse4_2 popcnt aes avx avx2 lahf_lm bmi2"
            #expect(ProcessorCheck.missingFlags(cpuinfo: Self.cpuinfo(flags: modern)).isEmpty)
        }

        @Test func anOlderProcessorIsToldWhatItLacks() {
            // A processor of 2008: SSSE3 and SSE4.1, not SSE4.2 or POPCNT.
            let old =
                "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov fxsr sse sse2 syscall nx lm pni ssse3 cx16 sse4_1 lahf_lm"
            let missing = ProcessorCheck.missingFlags(cpuinfo: Self.cpuinfo(flags: old))
            #expect(missing == ["sse4_2", "popcnt"])
            let message = ProcessorCheck.message(missing: missing)
            #expect(message.hasPrefix("Error: this processor lacks sse4_2, popcnt"))
            #expect(!message.contains("\n"))
            #expect(message.contains("AVIATOR_ADSB_GENERIC_CPU=1"))
        }

        @Test func withoutAFlagsLineTheBinaryIsGivenItsChance() {
            #expect(ProcessorCheck.missingFlags(cpuinfo: "processor\t: 0\nmodel name\t: Test\n").isEmpty)
            #expect(ProcessorCheck.missingFlags(cpuinfo: "").isEmpty)
            // A word merely starting like a flag does not count as it.
            #expect(
                ProcessorCheck.missingFlags(cpuinfo: Self.cpuinfo(flags: "ssse3x sse4_1 sse4_2 popcnt cx16 lahf_lm"))
                    == ["ssse3"])
        }

        @Test func thisMachinePassesAndTheBinaryRuns() throws {
            let text = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            #expect(ProcessorCheck.missingFlags(cpuinfo: text).isEmpty)
            #expect(try BinaryRunner.run(["--version"]).status == 0)
        }
    }
}
