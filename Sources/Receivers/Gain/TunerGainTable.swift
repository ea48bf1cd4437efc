/// The gain steps of the tuners rtl_tcp names in its greeting, dB: rtl_tcp says which tuner a
/// dongle has but not its gains, and the adaptive gain needs the real steps to move between.
/// (A local dongle reports its own through librtlsdr.)
package enum TunerGainTable {
    /// The steps of rtl_tcp's tuner type `type` (librtlsdr's numbering: 1 E4000, 2 FC0012,
    /// 3 FC0013, 4 FC2580, 5 R820T, 6 R828D), ascending; nil for a type it does not know.
    package static func steps(tunerType type: UInt32) -> [Double]? {
        switch type {
        case 1: [-1.0, 1.5, 4.0, 6.5, 9.0, 11.5, 14.0, 16.5, 19.0, 21.5, 24.0, 29.0, 34.0, 42.0]
        case 2: [-9.9, -4.0, 7.1, 17.9, 19.2]
        case 3:
            [
                -9.9, -7.3, -6.5, -6.3, -6.0, -5.8, -5.4, 5.8, 6.1, 6.3, 6.5, 6.7, 6.8, 7.0, 7.1, 17.9, 18.1, 18.2,
                18.4, 18.6, 18.8, 19.1, 19.7
            ]
        case 4: [0.0]
        case 5, 6: r820t
        default: nil
        }
    }

    /// The R820T's and R828D's 29 steps, the tuners of nearly every dongle sold for ADS-B.
    package static let r820t = [
        0.0, 0.9, 1.4, 2.7, 3.7, 7.7, 8.7, 12.5, 14.4, 15.7, 16.6, 19.7, 20.7, 22.9, 25.4, 28.0, 29.7, 32.8, 33.8,
        36.4, 37.2, 38.6, 40.2, 42.1, 43.4, 43.9, 44.5, 48.0, 49.6
    ]
}
