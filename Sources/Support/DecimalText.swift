/// Fixed-point decimal text (`12.30`) built from integer arithmetic: the same digits on every
/// platform, no printf and no locale. The truth files of the simulator, log lines and the
/// terminal radar all write their numbers with it.
package enum DecimalText {
    /// `value` with exactly `places` digits after the point (0 places: no point), rounded
    /// half away from zero. A value that is not finite is written `null` (the truth files are
    /// JSON); one too large for the arithmetic (`|value|·10^places` beyond 9·10^15, where a
    /// double has no fraction left) is written as Swift writes it.
    package static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let product = (abs(value) * Double(scale)).rounded()
        guard product < 9e15 else { return "\(value)" }
        let scaled = Int64(product)
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
