import Pipeline

/// A source on a local device that is opened before it streams, so that whatever fed the
/// radar while the device was away (`SourceSupervisor`'s fallback) keeps going until the
/// device is really open: a dongle that is plugged in but cannot be opened (another program
/// has it, no permission) must not stop the fallback at every retry.
package protocol DeviceSource: Source {
    /// Whether a device is plugged in now: only then is opening it worth a try.
    var isPresent: Bool { get }
    /// Opens the device, or throws why it cannot (one line). Returns the streaming of the
    /// opened device, which feeds a tracker until the task is cancelled (then returns) or the
    /// device is lost (then throws).
    func open() throws -> @Sendable (any FrameSink) async throws -> Void
}

extension DeviceSource {
    /// Opens the device and streams from it.
    package func run(into sink: any FrameSink) async throws {
        try await open()(sink)
    }
}
