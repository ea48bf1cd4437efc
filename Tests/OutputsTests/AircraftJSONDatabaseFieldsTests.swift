import Foundation
import Identity
import Testing
import Tracking

@testable import Outputs

/// aircraft.json's aircraft database fields, as readsb writes them with `--db-file`: `r`, `t`,
/// `desc`, `ownOp`, `year` (a string) and `dbFlags` after `flight`, each left out when unknown.
@Suite struct AircraftJSONDatabaseFieldsTests {
    static let now = 1_763_000_000.0

    @Test func theDatabaseRowIsWrittenAsReadsbWritesIt() throws {
        var plane = AircraftState(icao: 0x4CA7B4, lastSeen: Self.now, source: .adsb)
        plane.callsign = "RYR1AB"
        var identity = AircraftIdentity()
        identity.record = AircraftRecord(
            registration: "EI-DWF", typeCode: "B738", flags: [.military, .limitedDisplay],
            description: "BOEING 737-800", year: "2007", owner: "Ryanair \"DAC\"")
        plane.identity = identity
        let text = AircraftJSONWriter.object(for: plane, now: Self.now)
        #expect(
            text.contains(
                #""flight":"RYR1AB  ","r":"EI-DWF","t":"B738","desc":"BOEING 737-800","ownOp":"Ryanair \"DAC\"","year":"2007","dbFlags":9"#
            ))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["ownOp"] as? String == "Ryanair \"DAC\"")
    }

    @Test func unknownFieldsAndZeroFlagsAreLeftOut() {
        var plane = AircraftState(icao: 0xA00001, lastSeen: Self.now, source: .adsb)
        var identity = AircraftIdentity()
        identity.registration = "N1"  // derived from the address: not a database row
        identity.record = AircraftRecord(typeCode: "C172")
        plane.identity = identity
        let text = AircraftJSONWriter.object(for: plane, now: Self.now)
        #expect(text.contains(#""t":"C172""#))
        for key in ["\"r\"", "\"desc\"", "\"ownOp\"", "\"year\"", "\"dbFlags\""] { #expect(!text.contains(key)) }
        plane.identity = nil
        #expect(!AircraftJSONWriter.object(for: plane, now: Self.now).contains("\"t\""))
    }
}
