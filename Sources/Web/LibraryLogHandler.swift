import Logging

/// The log handler the web server gives Hummingbird: every line the library writes goes to
/// the daemon's own handler at debug level, whatever level the library chose.
///
/// The library reports what happens to single connections, and some of it as errors: a
/// phone refusing the self-signed certificate on its first visit ("Error handling upgrade
/// result"), each connection it had to abandon when the daemon stops ("Waiting on child
/// channel: CancellationError()"). None of that is the daemon failing, and at the default
/// level it would only alarm whoever reads the log. What matters the daemon logs itself:
/// where it serves, and a server that cannot start, which `WebServer.run()` throws.
struct LibraryLogHandler: LogHandler {
    private var base: any LogHandler

    /// A handler that hands `base` every event at debug level.
    init(base: any LogHandler) {
        self.base = base
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard base.logLevel <= .debug else { return }
        var event = event
        event.level = .debug
        base.log(event: event)
    }
}
