import ArgumentParser
import FoundationEssentials
import Logging
import ModeS
import Receivers

/// The options of the OpenSky fallback, shared by the commands that may fall back to it.
/// Credentials come from the environment (`OPENSKY_CLIENT_ID`, `OPENSKY_CLIENT_SECRET`), never
/// from the command line, where other users of the machine could read them.
struct OpenSkyOptions: ParsableArguments {
    @Option(name: .customLong("opensky-url"), help: ArgumentHelp("Base URL of the OpenSky REST API.", valueName: "url"))
    var url = "https://opensky-network.org"

    @Option(
        name: .customLong("opensky-token-url"),
        help: ArgumentHelp(
            "OAuth2 token endpoint, used when OPENSKY_CLIENT_ID and OPENSKY_CLIENT_SECRET are set.",
            valueName: "url"))
    var tokenURL = "https://auth.opensky-network.org/auth/realms/opensky-network/protocol/openid-connect/token"

    @Option(
        name: .customLong("opensky-interval"),
        help: ArgumentHelp(
            "Seconds between OpenSky polls (default 10 anonymous, 5 with credentials; at least 5).",
            valueName: "s"))
    var interval: Double?

    @Option(
        name: .customLong("opensky-box-lat"),
        help: ArgumentHelp(
            "Half-height in degrees of the box asked of OpenSky around the receiver (rounded to 0.1°).",
            valueName: "deg"))
    var boxLatitude = OpenSkyQuery.defaultLatitudeHalfSpan

    @Option(
        name: .customLong("opensky-box-lon"),
        help: ArgumentHelp("Half-width in degrees of the box asked of OpenSky around the receiver.", valueName: "deg"))
    var boxLongitude = OpenSkyQuery.defaultLongitudeHalfSpan

    func validate() throws {
        for (name, value) in [("--opensky-url", url), ("--opensky-token-url", tokenURL)] {
            guard let parsed = URL(string: value), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false
            else {
                throw ValidationError("\(name) takes an http:// or https:// URL, not '\(value)'")
            }
        }
        if let interval, !(interval.isFinite && interval > 0 && interval <= 86_400) {
            throw ValidationError("--opensky-interval takes a positive number of seconds, at most a day")
        }
        guard boxLatitude.isFinite, boxLatitude > 0, boxLatitude <= 90 else {
            throw ValidationError("--opensky-box-lat takes degrees in (0, 90]")
        }
        guard boxLongitude.isFinite, boxLongitude > 0, boxLongitude <= 180 else {
            throw ValidationError("--opensky-box-lon takes degrees in (0, 180]")
        }
        do {
            _ = try OAuthTokenProvider.Credentials.fromEnvironment(ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// The fallback source's settings for a receiver at `receiver` (nil: the source says it has no box to
    /// ask for, and stays idle).
    func configuration(receiver: GeoPoint?) throws -> OpenSkySource.Configuration {
        var configuration = OpenSkySource.Configuration()
        configuration.baseURL = url
        configuration.tokenURL = tokenURL
        configuration.receiver = receiver
        configuration.latitudeHalfSpan = boxLatitude
        configuration.longitudeHalfSpan = boxLongitude
        configuration.interval = interval.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        configuration.credentials = try OAuthTokenProvider.Credentials.fromEnvironment(
            ProcessInfo.processInfo.environment)
        return configuration
    }
}
