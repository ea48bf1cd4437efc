import Foundation

/// A synthetic busy sky for load and performance runs: 300 aircraft around 52.3, 4.75,
/// recorded by the simulator into a folder of its own.
struct BusySky {
    /// The folder holding the recording; removed by `remove()`.
    let folder: URL
    /// The recording (IQ samples) to replay.
    let recording: String

    /// Simulates six seconds of 300 aircraft (the same sky every time: seed 42).
    init(label: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "aviator-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        recording = try BinaryRunner.simulate(
            into: folder, file: "sky300.cu8",
            arguments: [
                "--duration", "6", "--aircraft", "300", "--seed", "42", "--receiver", "52.3,4.75"
            ]
        ).path
    }

    /// A daemon replaying the sky in real time, over and over, with a web server on a free
    /// port and a 400 km range (every aircraft), plus `arguments`.
    func daemon(_ arguments: [String] = []) throws -> Daemon {
        try Daemon(
            [
                "--replay", recording, "--throttle", "--loop", "--receiver", "52.3,4.75",
                "--http", "127.0.0.1:0", "--range-km", "400"
            ] + arguments)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
