import CRtlSdr
import IQ
import Synchronization

/// One opened RTL-SDR dongle, configured for 1090 MHz reception.
///
/// A thin, checked layer over librtlsdr: every call that can fail turns into an `Error` with
/// the step that failed, so the daemon can log one clear line.
package final class RTLSDRDevice: @unchecked Sendable {
    /// Which device to open.
    package enum Selector: Sendable, Equatable, CustomStringConvertible {
        /// By position in librtlsdr's list (0 is the first dongle).
        case index(Int)
        /// By the serial number stored in the dongle's EEPROM.
        case serial(String)

        /// Parses "0", "1", ... as an index, anything else as a serial number.
        package init(_ text: String) {
            if let index = Int(text), index >= 0 { self = .index(index) } else { self = .serial(text) }
        }

        /// "index N" or "serial S".
        package var description: String {
            switch self {
            case .index(let index): return "index \(index)"
            case .serial(let serial): return "serial \(serial)"
            }
        }
    }

    /// Tuner gain.
    package enum Gain: Sendable, Equatable {
        /// The tuner's automatic gain control.
        case automatic
        /// A fixed gain in dB; the nearest gain the tuner supports is used.
        case decibels(Double)
        /// The daemon's own control (`GainController`), within `bounds` (dB), starting at the
        /// step nearest `start` (the highest within the bounds when nil), remembering where it
        /// settles in `memory` (which gives `start` when the source opens the device).
        case adaptive(start: Double?, bounds: ClosedRange<Double>, memory: GainMemory? = nil)
    }

    /// What failed, in words for the log.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// One line.
        package let description: String
    }

    /// Everything needed to set a device up.
    package struct Configuration: Sendable {
        /// Which device.
        package var selector: Selector = .index(0)
        /// Samples per second (2,400,000 or 2,000,000).
        package var sampleRate: Int = 2_400_000
        /// Centre frequency in Hz.
        package var frequency: Int = 1_090_000_000
        /// Tuner gain.
        package var gain: Gain = .automatic
        /// Frequency correction of the dongle's crystal, parts per million.
        package var ppm: Int = 0

        /// The defaults: device 0, 2.4 MS/s, 1090 MHz, automatic gain, no correction.
        package init() {}
    }

    private let handle: OpaquePointer
    /// The gains the tuner has, dB, ascending (empty when it reports none).
    package let tunerGains: [Double]
    private let gainSet = Mutex<Double?>(nil)
    /// The gain actually set, in dB (nil for automatic).
    package var gainDecibels: Double? { gainSet.withLock { $0 } }
    /// The device's name as librtlsdr reports it.
    package let name: String

    /// Opens and configures the device; throws `Failure` naming the step that failed.
    package init(_ configuration: Configuration) throws(Failure) {
        let deviceCount = Int(rtlsdr_get_device_count())
        guard deviceCount > 0 else { throw Failure(description: "no RTL-SDR device found") }
        let index: Int
        switch configuration.selector {
        case .index(let wanted):
            guard wanted < deviceCount else {
                throw Failure(description: "no RTL-SDR device at index \(wanted) (\(deviceCount) found)")
            }
            index = wanted
        case .serial(let serial):
            let found = Int(rtlsdr_get_index_by_serial(serial))
            guard found >= 0 else { throw Failure(description: "no RTL-SDR device with serial \(serial)") }
            index = found
        }
        name = rtlsdr_get_device_name(UInt32(index)).map { String(cString: $0) } ?? "RTL-SDR"
        var opened: OpaquePointer?
        let status = rtlsdr_open(&opened, UInt32(index))
        guard status == 0, let opened else {
            throw Failure(description: "cannot open RTL-SDR device \(index) (\(name)): error \(status)")
        }
        handle = opened
        let count = Int(rtlsdr_get_tuner_gains(opened, nil))
        var gains = [Int32](repeating: 0, count: max(count, 0))
        if count > 0 { _ = rtlsdr_get_tuner_gains(opened, &gains) }
        // librtlsdr gives tenths of a dB.
        tunerGains = gains.map { Double($0) / 10 }.sorted()
        // From here on every stored property is set, so a step that throws still ends in
        // `deinit`, which closes the device: closing it here as well would close it twice.
        try check(rtlsdr_set_sample_rate(handle, UInt32(configuration.sampleRate)), "set the sample rate")
        try check(rtlsdr_set_center_freq(handle, UInt32(configuration.frequency)), "tune to 1090 MHz")
        if configuration.ppm != 0 {
            // librtlsdr returns -2 when the value is already set: not an error.
            let result = rtlsdr_set_freq_correction(handle, Int32(clamping: configuration.ppm))
            if result != -2 { try check(result, "set the frequency correction") }
        }
        try configure(gain: configuration.gain)
        try check(rtlsdr_reset_buffer(handle), "reset the sample buffer")
    }

    deinit {
        rtlsdr_close(handle)
    }

    /// Streams samples until `cancel()` is called or the device fails, calling `ring.push` from
    /// librtlsdr's thread. Blocks; returns librtlsdr's status (0 after a clean cancel).
    ///
    /// The USB transfers are standard blocks (`IQBlock.standardByteCount`, a multiple of the
    /// 512 bytes librtlsdr requires); four of them in flight take 4 MiB of the kernel's USB
    /// memory, well inside its usual 16 MB limit.
    package func stream(
        into ring: SampleRing, bufferCount: Int = 4,
        bufferLength: Int = IQBlock.standardByteCount
    ) -> Int {
        let context = Unmanaged.passUnretained(ring).toOpaque()
        let status = rtlsdr_read_async(
            handle,
            { buffer, length, context in
                guard let buffer, let context else { return }
                let ring = Unmanaged<SampleRing>.fromOpaque(context).takeUnretainedValue()
                ring.push(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
            }, context, UInt32(bufferCount), UInt32(bufferLength))
        return Int(status)
    }

    /// Asks a running `stream` to return.
    package func cancel() {
        rtlsdr_cancel_async(handle)
    }

    private func configure(gain: Gain) throws(Failure) {
        switch gain {
        case .automatic:
            try check(rtlsdr_set_tuner_gain_mode(handle, 0), "enable automatic gain")
            gainSet.withLock { $0 = nil }
        case .decibels(let wanted):
            try check(rtlsdr_set_tuner_gain_mode(handle, 1), "enable manual gain")
            try setGain(wanted)
        case .adaptive(let start, let bounds, _):
            try check(rtlsdr_set_tuner_gain_mode(handle, 1), "enable manual gain")
            try setGain(GainController(steps: tunerGains, bounds: bounds, start: start).gain)
        }
    }

    /// Sets the tuner's gain to the step nearest `wanted` dB and returns it. Safe while the
    /// device streams, from any thread (the USB control transfer takes a few milliseconds: not
    /// from the thread that demodulates).
    @discardableResult
    package func setGain(_ wanted: Double) throws(Failure) -> Double {
        guard let nearest = tunerGains.min(by: { abs($0 - wanted) < abs($1 - wanted) }) else {
            throw Failure(description: "the tuner reports no gain settings")
        }
        try check(rtlsdr_set_tuner_gain(handle, Int32((nearest * 10).rounded())), "set the gain")
        gainSet.withLock { $0 = nearest }
        return nearest
    }

    private func check(_ status: Int32, _ step: String) throws(Failure) {
        guard status >= 0 else { throw Failure(description: "RTL-SDR: cannot \(step): error \(status)") }
    }
}
