import FeedProtocol
import Testing

@Suite struct JSONDuplicateKeyTests {
    @Test(arguments: [
        #"{"type":"view","type":"ping"}"#,
        #"{"a":1,"b":[{"c":1},{"c":2}],"a":2}"#,
        #"{"a":{"b":1,"b":{}}}"#,
        #"{"k\"q":1,"k\u0022q":2}"#,
        #"[1,{"x":[],"x":null}]"#
    ])
    func findsAKeyGivenTwice(_ text: String) {
        #expect(JSONDuplicateKey.first(in: Array(text.utf8)) != nil, "\(text)")
    }

    @Test(arguments: [
        #"{"type":"view","range_km":10}"#,
        // The same key in sibling objects, keys that look alike, strings full of syntax.
        #"{"a":{"k":1},"b":{"k":2},"c":[{"k":3},{"k":4}]}"#,
        #"{"a":"{\"a\":1,","b":"\"a\":","A":1,"a ":2}"#,
        #"{"list":["a","a"],"x":{"y":"x"}}"#,
        "42"
    ])
    func acceptsDistinctKeys(_ text: String) {
        #expect(JSONDuplicateKey.first(in: Array(text.utf8)) == nil, "\(text)")
    }

    @Test func namesTheKeyWithItsEscapesResolved() {
        #expect(JSONDuplicateKey.first(in: Array(#"{"ab":1,"\u0061b":2}"#.utf8)) == "ab")
    }
}
