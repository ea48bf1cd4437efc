import ArgumentParser

/// `aviator-adsb radar`: the terminal radar, a client of the feed socket.
struct RadarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "radar", abstract: "The terminal radar, a client of the feed socket.")

    func run() async throws {
        throw NotYetAvailable(command: "radar")
    }
}
