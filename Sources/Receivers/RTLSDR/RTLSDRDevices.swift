import CRtlSdr

/// The RTL-SDR dongles librtlsdr can see on this machine.
public enum RTLSDRDevices {
    /// How many devices are plugged in.
    public static var count: Int { Int(rtlsdr_get_device_count()) }
}
