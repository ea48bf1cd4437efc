import CRtlSdr

/// The RTL-SDR dongles librtlsdr can see on this machine.
public enum RTLSDRDevices {
    /// How many devices are plugged in.
    public static var count: Int { Int(rtlsdr_get_device_count()) }

    /// The name librtlsdr gives device `index`, or nil when there is no such device.
    public static func name(at index: Int) -> String? {
        guard index >= 0, index < count, let name = rtlsdr_get_device_name(UInt32(index)) else { return nil }
        return String(cString: name)
    }
}
