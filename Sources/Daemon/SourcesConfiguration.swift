import MQTT
import ModeS
import ModeSDemod
import Receivers

/// What feeds the daemon: the local receiver (a dongle with its fallback, a replay, rtl_tcp,
/// or none) and the network inputs beside it, as plain settings. The command line's options
/// are checked and turned into this; `Daemon` makes the sources from it.
package struct SourcesConfiguration: Sendable {
    /// The receiver whose samples are demodulated here, if any.
    package enum Local: Sendable {
        /// An RTL-SDR dongle, with OpenSky as its fallback while it is away (nil: none, as
        /// with `noFallback`, which also makes a missing dongle an error).
        case dongle(
            tuner: RTLSDRDevice.Configuration, fallback: OpenSkySource.Configuration, noFallback: Bool,
            retryInterval: Duration)
        /// A recording played through the same demodulator.
        case replay(ReplaySource.Configuration)
        /// A dongle served by rtl_tcp at `host`:`port`.
        case rtltcp(host: String, port: Int, tuner: RTLSDRDevice.Configuration)
        /// No local receiver: only the network inputs feed the radar.
        case none
    }

    /// The local receiver.
    package var local: Local = .none
    /// The demodulator's options, for the dongle, rtl_tcp and the replay.
    package var demodulator = StreamingDemodulator.Options()
    /// Other receivers' Beast outputs to connect to.
    package var beastIn: [(host: String, port: Int)] = []
    /// Addresses to accept Beast pushed in on.
    package var beastListen: [(host: String, port: Int)] = []
    /// The broker to gather the network's receivers from, with the topic filter of their frame
    /// batches and this daemon's own name when it also publishes there (its own frames are
    /// not gathered back).
    package var mqttIn: (configuration: MQTTConfiguration, filter: String, ownName: String?)?

    /// No source yet.
    package init() {}
}
