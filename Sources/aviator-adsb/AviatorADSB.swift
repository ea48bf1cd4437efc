import ArgumentParser

/// The `aviator-adsb` command: the daemon by default, plus the tools around it.
@main
struct AviatorADSB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aviator-adsb",
        abstract: "Receive Mode S / ADS-B from an RTL-SDR dongle and publish a live radar of the sky.",
        subcommands: [
            RunCommand.self, DemodCommand.self, DecodeCommand.self,
            RadarCommand.self, SimulateCommand.self, BenchCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}
