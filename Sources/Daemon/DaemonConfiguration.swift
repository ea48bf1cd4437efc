import FeedServer
import History
import Identity
import ModeS
import Outputs
import Receivers
import Web

/// Everything the daemon is told at start, as plain values: where the receiver is, what feeds
/// it, where it publishes. `aviator-adsb run` turns its options into one; a test builds one
/// by hand and starts a `Daemon` from it without the executable.
package struct DaemonConfiguration: Sendable {
    /// The web server's settings, beyond `WebConfiguration`: TLS and `/metrics`.
    package struct WebSettings: Sendable {
        /// Address, port, CORS and connection limits.
        package var server: WebConfiguration
        /// The certificate and key for HTTPS; nil for plain HTTP.
        package var tls: TLSCredentials?
        /// Whether `/metrics` is served.
        package var metrics = true

        /// Settings for `server`, over HTTPS with `tls` when given.
        package init(server: WebConfiguration, tls: TLSCredentials? = nil, metrics: Bool = true) {
            self.server = server
            self.tls = tls
            self.metrics = metrics
        }
    }

    /// The version receiver.json, the MQTT announcement and the logs name.
    package var version: String
    /// The receiver's position, if known.
    package var receiver: GeoPoint?
    /// The antenna's height above the ellipsoid, metres (0 when unknown).
    package var receiverHeightMetres: Double = 0
    /// The radar feed: socket, radar defaults, client limit.
    package var feed: FeedConfiguration
    /// What feeds the radar.
    package var sources = SourcesConfiguration()
    /// The ecosystem's outputs (Beast, SBS, AVR, aircraft.json).
    package var outputs = OutputConfiguration()
    /// The web server, when `--http` is given.
    package var web: WebSettings?
    /// Publishing to the network of receivers, when `--mqtt` is given.
    package var mqttOut: MQTTPublisher.Configuration?
    /// The route service, when `--route-api` is given.
    package var routes: RouteLookup.Configuration?
    /// The identity store (`--identity-store`): types, airlines, airports, offline routes.
    package var identityStore: String?
    /// The aircraft database in tar1090-db's format (`--db-file`), which replaces the store's
    /// aircraft table.
    package var aircraftDatabase: String?
    /// The history store, unless `--no-history` (or no state directory is known).
    package var history: HistorySettings?
    /// How often the statistics line is logged.
    package var statisticsInterval: Duration = .seconds(60)

    /// A configuration of the feed `feed`, with no source and no output yet.
    package init(version: String, feed: FeedConfiguration) {
        self.version = version
        self.feed = feed
    }
}
