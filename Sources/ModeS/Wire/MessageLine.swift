import Support

/// One line of text carrying a Mode S message, in any of the forms the ecosystem writes:
/// - AVR `*8D4840D6202CC371C32CE0576098;`
/// - timestamped AVR `@0123456789AB8D4840D6202CC371C32CE0576098;` (12 hex digits of a
///   12 MHz clock, then the message)
/// - bare hex `8D4840D6202CC371C32CE0576098`
/// - CSV rows whose first column is a Unix time and another column the message in hex,
///   quoted or not (`1457996400,"8D40...",...` or `1495353600,4D010D,A000...`).
public struct MessageLine: Sendable, Equatable {
    /// The message.
    public var bits: ModeSBits
    /// Seconds: the Unix time of a CSV row, or the 12 MHz clock of a timestamped AVR line
    /// divided into seconds; nil when the line gives no time.
    public var time: Double?

    /// Why a line could not be read.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Nothing on the line.
        case empty
        /// Characters other than hexadecimal digits where the message should be.
        case notHex
        /// The message is neither 14 nor 28 hex digits long.
        case wrongLength(Int)

        /// One short phrase for the error line.
        public var description: String {
            switch self {
            case .empty: return "empty line"
            case .notHex: return "not hexadecimal"
            case .wrongLength(let digits): return "\(digits) hex digits (a message has 14 or 28)"
            }
        }
    }

    /// Parses `line` (without its newline).
    public static func parse(_ line: Substring) -> Result<MessageLine, Problem> {
        var text = line.trimmingWhitespace()
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        guard !text.isEmpty else { return .failure(.empty) }
        if text.contains(",") { return parseCSV(text) }
        var time: Double?
        if text.hasPrefix("*") {
            text = text.dropFirst()
        } else if text.hasPrefix("@") {
            text = text.dropFirst()
            guard text.count >= 12, let ticks = UInt64(text.prefix(12), radix: 16) else {
                return .failure(.notHex)
            }
            time = Double(ticks) / 12_000_000
            text = text.dropFirst(12)
        }
        if text.hasSuffix(";") { text = text.dropLast() }
        return parseHex(text).map { MessageLine(bits: $0, time: time) }
    }

    private static func parseCSV(_ text: Substring) -> Result<MessageLine, Problem> {
        let columns = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace().trimmingQuotes()
        }
        let time = Double(columns[0])
        // The message is the first column after the time that is 14 or 28 hex digits.
        for column in columns.dropFirst() where column.count == 14 || column.count == 28 {
            if case .success(let bits) = parseHex(column) { return .success(MessageLine(bits: bits, time: time)) }
        }
        let longest = columns.dropFirst().max { $0.count < $1.count } ?? ""
        return parseHex(longest).map { MessageLine(bits: $0, time: time) }
    }

    private static func parseHex(_ text: Substring) -> Result<ModeSBits, Problem> {
        guard !text.isEmpty else { return .failure(.empty) }
        guard text.utf8.allSatisfy({ $0.isHexDigit }) else { return .failure(.notHex) }
        guard let bits = ModeSBits(hex: text) else { return .failure(.wrongLength(text.utf8.count)) }
        return .success(bits)
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

extension Substring {
    fileprivate func trimmingQuotes() -> Substring {
        var result = self
        if result.hasPrefix("\"") { result = result.dropFirst() }
        if result.hasSuffix("\"") { result = result.dropLast() }
        return result
    }
}
