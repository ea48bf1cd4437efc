import History

/// The input is the query string of a `/data/history/...` request (`HistoryQuery.parse`), the
/// only part of those requests that reaches the store's queries, read with every parameter
/// allowed and with none.
///
/// Checks: parsing is deterministic; with no parameter allowed only an empty query passes;
/// a query longer than `HistoryQuery.maxLength` is always refused; whatever passes is within
/// its documented form (times whole seconds below 10^11, an address of at most 25 bits, a
/// limit of 1 to 9,999,999, decimals finite and below 10^6 in size); the range and limit
/// checks after it answer without trapping; a refusal is one non-empty line.
enum HistoryQueryTarget {
    static let names: Set<String> = [
        "from", "to", "limit", "hex", "period", "at", "lat", "lon", "alt_m", "range_km", "min_alt_ft", "max_alt_ft",
        "max_distance_km", "hide_on_ground"
    ]

    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let query = String(decoding: input, as: UTF8.self)
        let first = Result { () throws(HistoryQueryError) in try HistoryQuery.parse(query, allowed: names) }
        let second = Result { () throws(HistoryQueryError) in try HistoryQuery.parse(query, allowed: names) }
        try check(first == second, "two parses differ: \(first) and \(second)")
        let none = Result { () throws(HistoryQueryError) in try HistoryQuery.parse(query, allowed: []) }
        if case .success = none { try check(query.isEmpty, "\(query) passed with no parameter allowed") }
        switch first {
        case .failure(let error):
            try check(!error.message.isEmpty && !error.message.contains(where: \.isNewline), "refusal \(error)")
        case .success(let parsed):
            try check(query.utf8.count <= HistoryQuery.maxLength, "a query of \(query.utf8.count) bytes passed")
            try checkForm(parsed)
            _ = try? parsed.range(now: 1_800_000_000, defaultSpan: 600, maxSpan: 21_600)
            _ = try? parsed.limit(default: 100, max: 100_000)
        }
    }

    private static func checkForm(_ q: HistoryQuery) throws(FuzzFailure) {
        for time in [q.from, q.to, q.at].compactMap({ $0 }) {
            try check(time >= 0 && time < 1e11 && time == time.rounded(), "time \(time)")
        }
        if let address = q.address { try check(address < 1 << 25, "address \(address)") }
        if let limit = q.limit { try check((1...9_999_999).contains(limit), "limit \(limit)") }
        let decimals = [
            q.latitude, q.longitude, q.altitudeM, q.rangeKm, q.minAltitudeFt, q.maxAltitudeFt, q.maxDistanceKm
        ]
        for number in decimals.compactMap({ $0 }) {
            try check(number.isFinite && number.magnitude < 1e6, "decimal \(number)")
        }
    }
}
