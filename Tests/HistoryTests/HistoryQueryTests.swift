import Testing

@testable import History

/// The history endpoints' query strings: what is accepted, and that hostile input of any
/// shape is a clear refusal, never a trap.
@Suite struct HistoryQueryTests {
    let all: Set<String> = ["from", "to", "hex", "limit", "period"]

    @Test func wellFormedParametersAreRead() throws {
        let query = try HistoryQuery.parse("from=1700000000&to=1700003600&hex=4841ab&limit=50&period=7d", allowed: all)
        #expect(query.from == 1_700_000_000 && query.to == 1_700_003_600)
        #expect(query.address == 0x48_41AB && query.limit == 50 && query.period == .week)
        #expect(try HistoryQuery.parse("hex=~00A0Ff", allowed: all).address == 0x100_A0FF)
        #expect(try HistoryQuery.parse(nil, allowed: all) == HistoryQuery())
        #expect(try HistoryQuery.parse("", allowed: []) == HistoryQuery())
    }

    @Test(
        arguments: [
            "from=-1", "from=1e9", "from=1.5", "from=", "from=123456789012", "from=0x10", "from=%31", "from=+1",
            "limit=0", "limit=99999999", "limit=-5", "hex=4841a", "hex=4841abc", "hex=GGGGGG", "hex=~~48412",
            "period=24H", "period=", "to=NaN", "from=1&from=2", "frm=1", "=1", "from", "&", "from=1&", "a=b=c",
            "from=١٢٣", "hex=４８４１ab", "period=24h\u{0}", String(repeating: "x", count: 600)
        ])
    func hostileParametersAreRefused(_ query: String) {
        #expect(throws: HistoryQueryError.self) { try HistoryQuery.parse(query, allowed: all) }
    }

    @Test func onlyTheEndpointsOwnParametersAreAccepted() {
        #expect(throws: HistoryQueryError.self) { try HistoryQuery.parse("hex=4841ab", allowed: ["period"]) }
    }

    @Test func rangesAndLimitsAreBounded() throws {
        let now = 1_700_000_000.0
        #expect(try HistoryQuery().range(now: now, defaultSpan: 600, maxSpan: 3600) == (now - 600)...now)
        var query = HistoryQuery()
        query.from = now - 100
        #expect(try query.range(now: now, defaultSpan: 600, maxSpan: 3600) == (now - 100)...(now + 500))
        query.to = now - 200
        #expect(throws: HistoryQueryError.self) { try query.range(now: now, defaultSpan: 600, maxSpan: 3600) }
        query.from = 0
        query.to = now
        #expect(throws: HistoryQueryError.self) { try query.range(now: now, defaultSpan: 600, maxSpan: 3600) }
        query.limit = 1_000_001
        #expect(throws: HistoryQueryError.self) { try query.limit(default: 10, max: 1_000_000) }
        #expect(try HistoryQuery().limit(default: 10, max: 100) == 10)
    }

    /// Random strings over the characters that matter to the parser (and some that should
    /// not): every one parses or is refused, and whatever parses is within its bounds.
    @Test func randomQueriesNeverTrap() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("fromtlimhexpd=&~0123456789abcdefABCDEF%+-.;\u{0} é24h7d")
        let names = ["from=", "to=", "hex=", "limit=", "period=", "&", "="]
        var accepted = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                if Bool.random(using: &generator) {
                    text += names.randomElement(using: &generator)!
                } else {
                    text.append(alphabet.randomElement(using: &generator)!)
                }
            }
            guard let query = try? HistoryQuery.parse(text, allowed: all) else { continue }
            accepted += 1
            #expect(query.from.map { $0 >= 0 && $0 < 1e11 } ?? true, "\(text)")
            #expect(query.limit.map { $0 >= 1 && $0 < 10_000_000 } ?? true, "\(text)")
            #expect(query.address.map { $0 < 1 << 25 } ?? true, "\(text)")
            _ = try? query.range(now: 1_700_000_000, defaultSpan: 600, maxSpan: 3600)
        }
        // Some random strings are valid queries (an empty one is), so both paths ran.
        #expect(accepted > 0)
    }
}
