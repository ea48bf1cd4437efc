import ArgumentParser

/// `aviator-adsb simulate`: write a synthetic IQ recording and its truth.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate", abstract: "Write a synthetic IQ recording and its truth.")

    func run() async throws {
        throw NotYetAvailable(command: "simulate")
    }
}
