import Foundation
import ModeS
import TestSupport
import Testing

@testable import Receivers

@Suite struct StateVectorTests {
    func decode(_ body: String) throws -> StateVectorResponse {
        try StateVectorResponse.decode(Data(body.utf8))
    }

    @Test func seventeenAndEighteenFieldRowsDecode() throws {
        let response = try decode(
            OpenSkyFixtures.body(
                [
                    OpenSkyFixtures.cruising(at: 1_700_000_000),
                    OpenSkyFixtures.taxiing(at: 1_700_000_000)
                ], time: 1_700_000_005))
        #expect(response.time == 1_700_000_005)
        #expect(response.skippedRows == 0)
        try #require(response.states.count == 2)
        let cruising = response.states[0]
        let taxiing = response.states[1]
        #expect(cruising.icao24 == "4b1805")
        #expect(cruising.callsign == "SWR8KR  ")
        #expect(cruising.timePosition == 1_699_999_999)
        #expect(cruising.latitude == 47.4502 && cruising.longitude == 8.6521)
        #expect(cruising.category == nil)
        #expect(cruising.squawk == "1000")
        #expect(taxiing.onGround)
        #expect(taxiing.timePosition == nil && taxiing.latitude == nil && taxiing.baroAltitude == nil)
        #expect(taxiing.category == 4)
    }

    @Test func conversionToTrackerUnits() throws {
        let response = try decode(OpenSkyFixtures.body([OpenSkyFixtures.cruising(at: 1_700_000_000)]))
        let state = try #require(response.states.first?.report(now: 1_700_000_010))
        #expect(state.icao == 0x4B1805)
        #expect(state.callsign == "SWR8KR")
        #expect(state.altitudeBaroFt == 10_000)  // 3048 m
        #expect(state.altitudeGeoFt == 10_173)  // 3100.8 m = 10173.2 ft
        #expect(abs(state.groundSpeedKt! - 194.384) < 0.001)  // 100 m/s
        #expect(state.verticalRateFpm == -1000)  // -5.08 m/s
        #expect(state.trackDeg == 271.5)
        #expect(state.onGround == false)
        #expect(state.position == GeoPoint(latitude: 47.4502, longitude: 8.6521))
        #expect(state.positionTime == 1_699_999_999)
        #expect(state.lastSeen == 1_700_000_000)
        #expect(state.squawk == "1000")
    }

    @Test func serverTimesAheadOfTheLocalClockAreClamped() throws {
        let vector = StateVector(icao24: "abcdef", timePosition: 2_000, lastContact: 2_000, longitude: 1, latitude: 2)
        let state = try #require(vector.report(now: 1_500))
        #expect(state.lastSeen == 1_500)
        #expect(state.positionTime == 1_500)
    }

    @Test func categoriesMapToADSBSets() {
        #expect(StateVector.emitterCategory(0) == nil)
        #expect(StateVector.emitterCategory(1) == nil)
        #expect(StateVector.emitterCategory(2) == "A1")
        #expect(StateVector.emitterCategory(4) == "A3")
        #expect(StateVector.emitterCategory(8) == "A7")
        #expect(StateVector.emitterCategory(9) == "B1")
        #expect(StateVector.emitterCategory(15) == "B7")
        #expect(StateVector.emitterCategory(16) == "C1")
        #expect(StateVector.emitterCategory(20) == "C5")
        #expect(StateVector.emitterCategory(21) == nil)
    }

    @Test func oddSquawksAndBlankCallsignsAreDropped() throws {
        var vector = StateVector(icao24: "ABCDEF", callsign: "        ", lastContact: 10, squawk: "7800")
        var state = try #require(vector.report(now: 10))
        #expect(state.icao == 0xABCDEF)
        #expect(state.callsign == nil)
        #expect(state.squawk == nil)
        #expect(state.position == nil && state.positionTime == nil)
        vector.squawk = "7700"
        state = try #require(vector.report(now: 10))
        #expect(state.squawk == "7700")
    }

    @Test func callsignsOutsideTheIdentificationCharactersAreDropped() throws {
        for (callsign, kept) in [
            ("SWR8KR  ", "SWR8KR"), ("D EABC", "D EABC"), ("swr8kr", nil), ("SWR\n8KR", nil),
            ("SWR8KR\u{1B}[2J", nil), ("ABCDEFGHI", nil), (String(repeating: "A", count: 100_000), nil),
            ("ÄBC", nil)
        ] as [(String, String?)] {
            let vector = StateVector(icao24: "ABCDEF", callsign: callsign, lastContact: 10)
            let state = try #require(vector.report(now: 10))
            #expect(state.callsign == kept, "\(callsign.prefix(20))")
        }
    }

    @Test(.computeBound) func millionsOfBadRowsAreCountedAsTheyAreRead() throws {
        // 2 million empty rows (about 6 MB): none is kept, and past the cap of rows they are
        // passed over unread.
        let body = #"{"time":1700000000,"states":["# + String(repeating: "[],", count: 2_000_000) + "[]]}"
        let response = try decode(body)
        #expect(response.states.isEmpty)
        #expect(response.skippedRows == 2_000_001)
        #expect(response.firstSkipReason?.contains("row 0") == true)
    }

    @Test func rowsPastTheCapAreCountedUnread() throws {
        let rows = Array(repeating: OpenSkyFixtures.cruising(at: 100), count: StateVectorResponse.maximumRows + 5)
        let response = try decode(OpenSkyFixtures.body(rows))
        #expect(response.states.count == StateVectorResponse.maximumRows)
        #expect(response.skippedRows == 5)
        #expect(response.firstSkipReason?.contains("over \(StateVectorResponse.maximumRows) rows") == true)
    }

    @Test func aSkipReasonIsOneLineOfPrintableText() {
        let text = OpenSkyError.oneLine("icao24 '\nFAKE\u{1B}[2J' is not six hex digits")
        #expect(!text.contains("\n") && !text.contains("\u{1B}"))
        #expect(text == "icao24 ' FAKE?[2J' is not six hex digits")
    }

    @Test func nullStatesIsAnEmptySky() throws {
        let response = try decode(#"{"time":1700000000,"states":null}"#)
        #expect(response.states.isEmpty)
        #expect(response.skippedRows == 0)
        let empty = try decode(#"{"time":1700000000,"states":[]}"#)
        #expect(empty.states.isEmpty)
    }

    @Test func malformedRowsAreSkippedAndCounted() throws {
        let rows = [
            OpenSkyFixtures.cruising(at: 100),
            #"["4b1806","SWR1","Switzerland",1,2]"#,  // too short
            #"[12345,"X","Nowhere",1,2,3,4,5,false,6,7,8,null,9,null,false,0]"#,  // icao24 not a string
            #"["zzzzzz","X","Nowhere",1,2,3,4,5,false,6,7,8,null,9,null,false,0]"#,  // not hex
            #"["4b1807","X","Nowhere",1,2,3,95,5,false,6,7,8,null,9,null,false,0]"#,  // latitude 95
            #"["4b1808","X","Nowhere",1,"late",3,4,5,false,6,7,8,null,9,null,false,0]"#,  // last_contact a string
            "null",
            #""4b1809""#,
            OpenSkyFixtures.sparse(at: 100)
        ]
        let response = try decode(OpenSkyFixtures.body(rows))
        #expect(response.states.map(\.icao24) == ["4b1805", "a1b2c3"])
        #expect(response.skippedRows == 7)
        #expect(response.firstSkipReason?.contains("row 1") == true)
        #expect(response.firstSkipReason?.contains("5 fields") == true)
    }

    @Test func valuesBeyondPhysicalBoundsMakeTheRowMalformed() throws {
        // Fields 8 (baro_altitude), 10 (velocity), 11 (true_track), 12 (vertical_rate) and
        // 14 (geo_altitude): numbers no aircraft reports, some too large for an integer.
        let rows = [
            #"["4b1810","X","Nowhere",1,2,3,4,1e19,false,6,7,8,null,9,null,false,0]"#,
            #"["4b1811","X","Nowhere",1,2,3,4,5,false,6,7,8,null,-1e20,null,false,0]"#,
            #"["4b1812","X","Nowhere",1,2,3,4,5,false,6,7,1e300,null,9,null,false,0]"#,
            #"["4b1813","X","Nowhere",1,2,3,4,5,false,5e307,7,8,null,9,null,false,0]"#,
            #"["4b1814","X","Nowhere",1,2,3,4,5,false,6,-1e308,8,null,9,null,false,0]"#,
            #"["4b1815","X","Nowhere",1,2,3,4,5,false,-6,7,8,null,9,null,false,0]"#,
            #"["4b1816","X","Nowhere",1,2,3,4,-3e15,false,6,7,8,null,9,null,false,0]"#,
            OpenSkyFixtures.cruising(at: 100)
        ]
        let response = try decode(OpenSkyFixtures.body(rows))
        #expect(response.states.map(\.icao24) == ["4b1805"])
        #expect(response.skippedRows == 7)
        #expect(response.firstSkipReason?.contains("baro_altitude") == true)
        // What passes converts to the tracker's units without trouble.
        let state = try #require(response.states.first?.report(now: 100))
        #expect(state.altitudeBaroFt == 10_000)
    }

    @Test func extraTrailingFieldsAreIgnored() throws {
        let row =
            #"["4b1805","SWR8KR  ","Switzerland",1,2,8.6,47.4,3048,false,100,271.5,0,null,3100,"1000",false,0,3,"future",42]"#
        let response = try decode(OpenSkyFixtures.body([row]))
        #expect(response.states.first?.category == 3)
        #expect(response.skippedRows == 0)
    }

    @Test func bodiesThatAreNotStatesAreErrors() {
        let truncated = String(OpenSkyFixtures.threeAircraft().prefix(60))
        for body in [
            "", "  \n", truncated, "<html>502 Bad Gateway</html>", "[]", #"{"time":1}"#,
            #"{"states":null}"#, #"{"time":1,"states":"none"}"#
        ] {
            #expect(throws: StateVectorResponse.Malformed.self, "\(body)") { try decode(body) }
        }
    }
}
