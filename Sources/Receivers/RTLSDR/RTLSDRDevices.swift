import CRtlSdr

/// The RTL-SDR dongles librtlsdr can see on this machine.
package enum RTLSDRDevices {
    /// How many devices are plugged in.
    package static var count: Int { Int(rtlsdr_get_device_count()) }
}
