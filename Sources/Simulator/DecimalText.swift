/// Fixed-point decimal text for numbers in the truth file, built from integer arithmetic so
/// that it is identical on every platform (no printf, no locale).
public enum DecimalText {
    /// `value` with exactly `places` digits after the point (0 places: no point), rounded
    /// half away from zero.
    public static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let whole = scaled / scale
        let fraction = scaled % scale
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if places > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return text
    }
}
