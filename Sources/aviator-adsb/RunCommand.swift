import ArgumentParser

/// `aviator-adsb run`: the daemon (dongle first, OpenSky fallback).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "The daemon (dongle first, OpenSky fallback).")

    func run() async throws {
        throw NotYetAvailable(command: "run")
    }
}
