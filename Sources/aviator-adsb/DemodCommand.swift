import ArgumentParser

/// `aviator-adsb demod`: frames from an IQ file as AVR lines.
struct DemodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demod", abstract: "Frames from an IQ file as AVR lines.")

    func run() async throws {
        throw NotYetAvailable(command: "demod")
    }
}
