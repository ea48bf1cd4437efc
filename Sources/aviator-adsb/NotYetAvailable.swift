/// The error a subcommand throws while its capability is not built yet: one clear line and
/// a non-zero exit, instead of pretending to work.
struct NotYetAvailable: Error, CustomStringConvertible {
    let command: String
    var description: String { "aviator-adsb \(command) is not available in this version yet" }
}
