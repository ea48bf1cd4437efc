import Logging
import Pipeline
import ServiceLifecycle

/// Keeps the radar fed: the dongle first; when there is none or it fails, the fallback source
/// (unless told not to), while retrying the dongle and switching back as soon as it returns.
package struct SourceSupervisor: Service {
    /// Why the supervisor gave up (only with `noFallback`).
    package struct NoDongle: Error, CustomStringConvertible {
        /// The reason, as logged.
        package let description: String
    }

    private let dongle: any DeviceSource
    private let fallback: any Source
    private let noFallback: Bool
    private let retryInterval: Duration
    private let sink: any FrameSink
    private let logger: Logger

    /// A supervisor feeding `sink` from `dongle`, or `fallback` while the dongle is away.
    package init(
        dongle: any DeviceSource, fallback: any Source, noFallback: Bool,
        retryInterval: Duration = .seconds(5), sink: any FrameSink, logger: Logger
    ) {
        self.dongle = dongle
        self.fallback = fallback
        self.noFallback = noFallback
        self.retryInterval = retryInterval
        self.sink = sink
        self.logger = logger
    }

    /// The tracker's source slot of the dongle and its fallback.
    package static let slot = "dongle"

    /// Runs until cancelled; throws `NoDongle` when the dongle is missing and `noFallback` is set.
    package func run() async throws {
        var fallbackTask: Task<Void, Never>?
        var dongleWasMissing = false
        var current: String?
        defer { fallbackTask?.cancel() }
        while !Task.isCancelled {
            // Once the dongle is missing, only try to open it again when one is plugged in.
            if dongleWasMissing, !dongle.isPresent {
                try? await Task.sleep(for: retryInterval)
                continue
            }
            // The fallback goes on while the dongle cannot be opened (busy, no permission):
            // it stops only once the dongle is open.
            let failure: (any Error)?
            let lost: Bool
            do {
                let stream = try dongle.open()
                await Self.stop(&fallbackTask)
                if dongleWasMissing {
                    logger.notice("RTL-SDR device is back: switching from \(current ?? "none") to \(dongle.name)")
                }
                let previous = current
                current = dongle.name
                sink.setSource(dongle.name, slot: Self.slot)
                do {
                    try await stream(sink)
                    return
                } catch {
                    sink.setSource(previous == dongle.name ? nil : previous, slot: Self.slot)
                    current = nil
                    (failure, lost) = (error, true)
                }
            } catch {
                (failure, lost) = (error, false)
            }
            if let failure {
                let reason = "\(failure)"
                if noFallback { throw NoDongle(description: reason) }
                // An open that keeps failing is told once; a device lost while streaming each time.
                if !dongleWasMissing || lost {
                    logger.error(
                        "\(reason); falling back to \(fallback.name) and retrying the dongle every \(retryInterval)")
                }
                dongleWasMissing = true
                if fallbackTask == nil {
                    current = fallback.name
                    fallbackTask = startFallback()
                }
            }
            try? await Task.sleep(for: retryInterval)
        }
    }

    /// Makes the fallback the slot's source and runs it on a task of its own, until the task
    /// is cancelled or the fallback stops by itself (logged).
    private func startFallback() -> Task<Void, Never> {
        sink.setSource(fallback.name, slot: Self.slot)
        let fallback = self.fallback
        let sink = self.sink
        let logger = self.logger
        return Task {
            do { try await fallback.run(into: sink) } catch is CancellationError {
            } catch { logger.error("\(fallback.name) stopped: \(error)") }
        }
    }

    /// Cancels the fallback's `task`, if one runs, and waits until it has ended.
    private static func stop(_ task: inout Task<Void, Never>?) async {
        guard let running = task else { return }
        running.cancel()
        await running.value
        task = nil
    }
}
