import ArgumentParser

/// The `aviator-adsb` command: the daemon by default, plus the tools around it.
@main
struct AviatorADSB: AsyncParsableCommand {
    /// The release, the one place it is written: `--version` prints it and receiver.json
    /// carries it.
    static let version = "0.9.0"

    static let configuration = CommandConfiguration(
        commandName: "aviator-adsb",
        abstract: "Receive Mode S / ADS-B from an RTL-SDR dongle and publish a live radar of the sky.",
        discussion: """
            Exit status: 0 when the command finished or was stopped by SIGINT or SIGTERM; 1 when \
            something it needed failed at run time, with one "Error: ..." line on standard \
            error; 64 for a command line it cannot accept, with the reason and a usage line. \
            The terminal radar exits with 128 plus the signal's number when a signal ends it.
            """,
        version: "aviator-adsb \(version)",
        subcommands: [
            RunCommand.self, DemodCommand.self, DecodeCommand.self,
            RadarCommand.self, SimulateCommand.self, BenchCommand.self, BenchNetworkCommand.self, DatabaseCommand.self
        ],
        defaultSubcommand: RunCommand.self
    )

    /// ArgumentParser's own entry point, after `ProcessorCheck` (a processor the build cannot
    /// run on gets one error line instead of "Illegal instruction") and `MallocArenas`.
    static func main() async {
        ProcessorCheck.exitUnlessSupported()
        MallocArenas.cap()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
