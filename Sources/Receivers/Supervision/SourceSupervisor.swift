import Logging
import ServiceLifecycle
import Tracking

/// Keeps the radar fed: the dongle first; when there is none or it fails, the fallback source
/// (unless told not to), while retrying the dongle and switching back as soon as it returns.
public struct SourceSupervisor: Service {
    /// Why the supervisor gave up (only with `noFallback`).
    public struct NoDongle: Error, CustomStringConvertible {
        /// The reason, as logged.
        public let description: String
    }

    private let dongle: RTLSDRSource
    private let fallback: any Source
    private let noFallback: Bool
    private let retryInterval: Duration
    private let tracker: LiveTracker
    private let logger: Logger

    /// A supervisor feeding `tracker` from `dongle`, or `fallback` while the dongle is away.
    public init(dongle: RTLSDRSource, fallback: any Source, noFallback: Bool,
                retryInterval: Duration = .seconds(5), tracker: LiveTracker, logger: Logger) {
        self.dongle = dongle
        self.fallback = fallback
        self.noFallback = noFallback
        self.retryInterval = retryInterval
        self.tracker = tracker
        self.logger = logger
    }

    /// The tracker's source slot of the dongle and its fallback.
    public static let slot = "dongle"

    /// Runs until cancelled; throws `NoDongle` when the dongle is missing and `noFallback` is set.
    public func run() async throws {
        var fallbackTask: Task<Void, Never>?
        var dongleWasMissing = false
        var current: String?
        defer { fallbackTask?.cancel() }
        while !Task.isCancelled {
            // Once the dongle is missing, only try to open it again when one is plugged in.
            if dongleWasMissing, RTLSDRDevices.count == 0 {
                try? await Task.sleep(for: retryInterval)
                continue
            }
            do {
                let previous = current
                let opened = try await startDongle(stopping: &fallbackTask, previous: previous,
                                                   wasMissing: dongleWasMissing)
                if opened { return }
            } catch {
                let reason = "\(error)"
                if noFallback { throw NoDongle(description: reason) }
                if !dongleWasMissing || error is RTLSDRSource.DeviceLost {
                    logger.error("\(reason); falling back to \(fallback.name) and retrying the dongle every \(retryInterval)")
                }
                dongleWasMissing = true
                if fallbackTask == nil {
                    current = fallback.name
                    tracker.setSource(fallback.name, slot: Self.slot)
                    let fallback = self.fallback, tracker = self.tracker, logger = self.logger
                    fallbackTask = Task {
                        do { try await fallback.run(into: tracker) } catch is CancellationError {
                        } catch { logger.error("\(fallback.name) stopped: \(error)") }
                    }
                }
            }
            try? await Task.sleep(for: retryInterval)
        }
    }

    /// Opens the dongle (stopping the fallback once it is open) and streams until cancelled;
    /// returns true then. Throws when the dongle cannot be opened or is lost.
    private func startDongle(stopping fallbackTask: inout Task<Void, Never>?, previous: String?,
                             wasMissing: Bool) async throws -> Bool {
        if let running = fallbackTask {
            running.cancel()
            await running.value
            fallbackTask = nil
        }
        tracker.setSource(dongle.name, slot: Self.slot)
        if wasMissing { logger.notice("RTL-SDR device is back: switching from \(previous ?? "none") to rtl-sdr") }
        do {
            try await dongle.run(into: tracker)
            return true
        } catch {
            tracker.setSource(previous == dongle.name ? nil : previous, slot: Self.slot)
            throw error
        }
    }
}
