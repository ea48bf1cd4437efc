import FoundationEssentials
import IQ
import Logging
import ModeS
import ModeSDemod
import Pipeline
import Synchronization

/// Receives from an RTL-SDR dongle: librtlsdr's USB thread fills a `SampleRing`, and a second
/// thread demodulates from it into a `LiveTracker`.
///
/// Two threads, not tasks: `rtlsdr_read_async` blocks for as long as the device streams, and
/// the demodulator is a tight synchronous loop; neither belongs on the cooperative pool.
package final class RTLSDRSource: DeviceSource {
    /// The device stopped streaming without being asked to (typically: unplugged).
    package struct DeviceLost: Error, CustomStringConvertible {
        /// librtlsdr's status.
        package let status: Int
        /// One line for the log.
        package var description: String { "RTL-SDR device stopped streaming (error \(status)); unplugged?" }
    }

    /// The device stopped delivering samples without reporting an error (a dongle whose USB
    /// transfers hang): it was cancelled after `RTLSDRSource.stallTimeout` of silence.
    package struct DeviceStalled: Error, CustomStringConvertible {
        /// Seconds without a sample.
        package let seconds: Double
        /// One line for the log.
        package var description: String {
            "RTL-SDR device sent no samples for \(Int(seconds)) s and was stopped (replugging it may help)"
        }
    }

    /// Seconds without a block from the device after which it counts as stalled. A process
    /// stopped for a while (a debugger, a suspended virtual machine) stalls it for as long and
    /// recovers by itself; a hung USB transfer never does. At 2.4 MS/s a block comes every
    /// 0.44 s.
    package static let stallTimeout = 30.0

    /// How the device is set up.
    package let configuration: RTLSDRDevice.Configuration
    /// How its samples are demodulated.
    package let demodulatorOptions: StreamingDemodulator.Options
    private let logger: Logger
    /// Sample blocks dropped because demodulation fell behind, in bytes, since the start.
    package var droppedBytes: Int { dropped.bytes }
    /// Drops of earlier device sessions, and of the current one.
    private let dropped = RingDrops()

    /// "rtl-sdr", the radar's source name while the dongle feeds it.
    package let name = "rtl-sdr"

    /// A source for the device described by `configuration`, demodulated with
    /// `demodulatorOptions`.
    package init(
        configuration: RTLSDRDevice.Configuration,
        demodulatorOptions: StreamingDemodulator.Options = .init(), logger: Logger
    ) {
        self.configuration = configuration
        self.demodulatorOptions = demodulatorOptions
        self.logger = logger
    }

    /// Whether any RTL-SDR device is plugged in.
    package var isPresent: Bool { RTLSDRDevices.count > 0 }

    /// Opens the device (throwing `RTLSDRDevice.Failure` when it cannot); the returned
    /// streaming runs until the task is cancelled (then returns) or the device fails (then
    /// throws `DeviceLost`).
    package func open() throws -> @Sendable (any FrameSink) async throws -> Void {
        guard let rate = SampleRate(rawValue: configuration.sampleRate) else {
            throw RTLSDRDevice.Failure(description: "unsupported sample rate \(configuration.sampleRate)")
        }
        var configuration = self.configuration
        if case .adaptive(_, let bounds, let memory?) = configuration.gain {
            configuration.gain = .adaptive(start: memory.load(logger: logger), bounds: bounds, memory: memory)
        }
        let device = try RTLSDRDevice(configuration)
        return { [self] sink in try await stream(device, rate: rate, into: sink) }
    }

    private func stream(_ device: RTLSDRDevice, rate: SampleRate, into sink: any FrameSink) async throws {
        logger.info("RTL-SDR \(device.name) streaming at \(Double(rate.hertz) / 1e6) MS/s, \(settings(of: device))")
        let ring = SampleRing()
        dropped.begin(ring)
        let cancelled = Mutex(false)
        let stalled = Mutex(false)
        let streaming = Mutex(true)
        let (options, label, adaptive) = (demodulatorOptions, self.label, adaptiveGain(for: device, rate: rate))
        let logger = self.logger
        let status: Int = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let usbStatus = Mutex(0)
                DedicatedThread.start(name: "demodulator") {
                    Self.demodulate(
                        ring: ring, rate: rate, options: options, into: sink, label: label,
                        gain: (device.gainDecibels, adaptive), logger: logger)
                    continuation.resume(returning: usbStatus.withLock { $0 })
                }
                DedicatedThread.start(name: "rtlsdr-usb") {
                    let result = device.stream(into: ring)
                    usbStatus.withLock { $0 = result }
                    streaming.withLock { $0 = false }
                    // Closing the ring lets the demodulator drain it and finish.
                    ring.close()
                }
                // A device that delivers nothing, and reports nothing, is cancelled like a
                // task that is: the source then ends with `DeviceStalled`.
                DedicatedThread.start(name: "rtlsdr-watch") {
                    while streaming.withLock({ $0 }) {
                        DedicatedThread.sleep(seconds: 1)
                        guard ring.secondsSinceLastPush > Self.stallTimeout else { continue }
                        stalled.withLock { $0 = true }
                        while streaming.withLock({ $0 }) {
                            device.cancel()
                            DedicatedThread.sleep(seconds: 0.05)
                        }
                    }
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            // A cancel that arrives before librtlsdr has started its loop is lost, so repeat it
            // until the USB thread has really returned.
            DedicatedThread.start(name: "rtlsdr-cancel") {
                while streaming.withLock({ $0 }) {
                    device.cancel()
                    DedicatedThread.sleep(seconds: 0.05)
                }
            }
        }
        dropped.end()
        if cancelled.withLock({ $0 }) { return }
        if stalled.withLock({ $0 }) { throw DeviceStalled(seconds: Self.stallTimeout) }
        throw DeviceLost(status: status)
    }

    /// "gain adaptive, starting at 49.6 dB, ppm 0" (or "gain 40.2 dB", "gain auto"), for the log.
    private func settings(of device: RTLSDRDevice) -> String {
        let gain =
            switch (configuration.gain, device.gainDecibels) {
            case (.adaptive, let start?): "adaptive, starting at \(start) dB"
            case (_, let decibels?): "\(decibels) dB"
            case (_, nil): "auto"
            }
        return "gain \(gain), ppm \(configuration.ppm)"
    }

    /// The adaptive gain's driver for `device`, when the configuration asks for it.
    private func adaptiveGain(for device: RTLSDRDevice, rate: SampleRate) -> AdaptiveGain? {
        guard case .adaptive(_, let bounds, let memory) = configuration.gain else { return nil }
        let controller = GainController(steps: device.tunerGains, bounds: bounds, start: device.gainDecibels)
        let logger = self.logger
        return AdaptiveGain(
            controller: controller, sampleRate: Double(rate.hertz), logger: logger,
            setGain: { wanted in try device.setGain(wanted) },
            settled: { gain in memory?.save(gain, logger: logger) })
    }

    /// The demodulation loop: drains the ring until it is closed and empty. `gain` is the
    /// tuner's gain at the start (nil: its AGC) and its adaptive control, if any.
    private static func demodulate(
        ring: SampleRing, rate: SampleRate, options: StreamingDemodulator.Options,
        into sink: any FrameSink, label: String, gain: (start: Double?, adaptive: AdaptiveGain?), logger: Logger
    ) {
        let stream = SampleStream(format: .cu8, sampleRate: rate, options: options, into: sink, label: label)
        stream.logLevelChanges(to: logger)
        stream.noteGain(gain.start, changed: false)
        stream.drain(ring) { gain.adaptive }
    }
}
