import Foundation

/// Real-shaped `/api/states/all` bodies: the field order, types and null patterns of the
/// OpenSky API, with times near `now` so the tracker does not expire them.
enum OpenSkyFixtures {
    static var now: Int { Int(Date().timeIntervalSince1970) }

    /// An airliner in cruise, 17 fields, blank-padded callsign.
    static func cruising(at time: Int = now) -> String {
        #"["4b1805","SWR8KR  ","Switzerland",\#(time - 1),\#(time),8.6521,47.4502,3048,false,100,271.5,-5.08,null,3100.8,"1000",false,0]"#
    }

    /// An aircraft on the ground with no position fix, 18 fields (category 4: large).
    static func taxiing(at time: Int = now) -> String {
        #"["3c6675","DLH4TK  ","Germany",null,\#(time),null,null,null,true,4.12,92.81,null,null,null,"7000",false,0,4]"#
    }

    /// An aircraft with a position but little else: nulls everywhere they are allowed.
    static func sparse(at time: Int = now) -> String {
        #"["a1b2c3",null,"United States",\#(time - 3),\#(time - 2),8.3,47.2,null,false,null,null,null,null,null,null,false,2,null]"#
    }

    /// A body with `rows`.
    static func body(_ rows: [String], time: Int = now) -> String {
        #"{"time":\#(time),"states":[\#(rows.joined(separator: ","))]}"#
    }

    /// The usual three-aircraft body.
    static func threeAircraft() -> String {
        body([cruising(), taxiing(), sparse()])
    }

    /// The empty sky as the API says it.
    static func emptySky() -> String {
        #"{"time":\#(now),"states":null}"#
    }
}
