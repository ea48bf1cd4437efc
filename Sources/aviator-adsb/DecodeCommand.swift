import ArgumentParser

/// `aviator-adsb decode`: AVR/hex lines in, one JSON object per decoded message out.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decode", abstract: "Decode AVR/hex lines into JSON.")

    func run() async throws {
        throw NotYetAvailable(command: "decode")
    }
}
