import Foundation
import TestSupport
import Testing

/// The web app's sun and moon (`Sources/Web/App/almanac.js`, run by node) against PyEphem,
/// an almanac of its own, through `scripts/almanac_check.py`: ten places from 78° south to
/// 70° north, every third day of a year at three times of day.
@Suite struct AlmanacCheckTests {
    /// The script prints the worst and the mean differences and fails when the sun is more
    /// than 0.1° off, the moon more than 0.5°, or the moon's lit fraction more than 0.02.
    @Test(.requires(.venvModule("ephem"), .program("node"))) func sunAndMoonAgreeWithPyEphem() throws {
        let (status, report) = try Self.almanacCheck()
        print(report)
        #expect(status == 0, "\(report)")
        #expect(report.contains("sun (limit 0.1°)") && report.contains("moon (limit 0.5°)"))
    }

    /// `scripts/almanac_check.py` in the project's Python: its exit status and everything it printed.
    static func almanacCheck() throws -> (Int32, String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let run = Process()
        run.executableURL = root.appendingPathComponent(".venv/bin/python")
        run.arguments = [root.appendingPathComponent("scripts/almanac_check.py").path]
        let output = Pipe()
        run.standardInput = FileHandle.nullDevice
        run.standardOutput = output
        run.standardError = output
        try run.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        run.waitUntilExit()
        return (run.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
