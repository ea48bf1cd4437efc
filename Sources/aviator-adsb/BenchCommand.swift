import ArgumentParser

/// `aviator-adsb bench`: throughput figures.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Throughput figures.")

    func run() async throws {
        throw NotYetAvailable(command: "bench")
    }
}
