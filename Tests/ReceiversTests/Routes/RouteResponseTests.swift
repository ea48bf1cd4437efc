import Foundation
import TestSupport
import Testing
import Tracking

@testable import Identity
@testable import Receivers

@Suite struct RouteResponseTests {
    static func parse(_ body: String, status: Int = 200) throws(RouteError) -> RouteResponse {
        try RouteResponse.parse(status: status, body: Array(body.utf8), callsign: "BAW123")
    }

    @Test func knownCallsignGivesBothAirports() throws {
        let response = try Self.parse(RouteFixtures.known())
        guard case .route(let route) = response else {
            Issue.record("no route: \(response)")
            return
        }
        #expect(route.callsign == "BAW123")
        #expect(
            route.origin
                == FlightRoute.Airport(
                    icao: "EGLL", iata: "LHR", name: "London Heathrow Airport", municipality: "London"))
        #expect(
            route.destination
                == FlightRoute.Airport(
                    icao: "KJFK", iata: "JFK", name: "John F Kennedy International Airport",
                    municipality: "New York"))
        #expect(route.origin.code == "LHR")
    }

    @Test func unknownCallsignIn404OrInTheBody() throws {
        #expect(try Self.parse(RouteFixtures.unknown, status: 404) == .unknown)
        #expect(try Self.parse("not even json", status: 404) == .unknown)
        #expect(try Self.parse(RouteFixtures.unknown) == .unknown)
    }

    @Test func otherStatusesAreErrors() {
        for (status, message) in [
            (500, "HTTP status 500"), (429, "HTTP status 429"), (302, "redirect (HTTP 302) not followed")
        ] {
            #expect(throws: RouteError(.status, message)) { try Self.parse(RouteFixtures.known(), status: status) }
        }
    }

    @Test func garbageIsMalformed() {
        let cases: [(String, String)] = [
            ("", "answer is not JSON"),
            ("<html>", "answer is not JSON"),
            ("[]", "answer has no \"response\" object"),
            ("42", "answer has no \"response\" object"),
            (#"{"response":"rate limited"}"#, "answer's \"response\" is an unexpected string"),
            (#"{"response":{}}"#, "answer has no \"flightroute\" object"),
            (#"{"response":{"flightroute":[]}}"#, "answer has no \"flightroute\" object"),
            (#"{"response":{"flightroute":{"origin":{"icao_code":"EGLL"}}}}"#, "answer has no destination object"),
            (
                #"{"response":{"flightroute":{"origin":"EGLL","destination":{"icao_code":"EGLL"}}}}"#,
                "answer has no origin object"
            )
        ]
        for (body, message) in cases {
            #expect(throws: RouteError(.malformed, message)) { try Self.parse(body) }
        }
    }

    @Test func badCodesAreDroppedAndAnAirportWithoutOneIsMalformed() throws {
        let partly = try Self.parse(
            RouteFixtures.known(origin: ("EG LL", "lhr", "Heathrow"), destination: ("KJFK", "JFKX1", "JFK")))
        guard case .route(let route) = partly else {
            Issue.record("no route: \(partly)")
            return
        }
        #expect(route.origin.icao == nil && route.origin.iata == "LHR")
        #expect(route.destination.icao == "KJFK" && route.destination.iata == nil)

        for (icao, iata) in [("", ""), ("EGLLX", "L"), ("EG\\u0000L", "<b>"), ("ÉGLL", "LH€")] {
            #expect(throws: RouteError(.malformed, "answer's origin has no valid ICAO or IATA code")) {
                try Self.parse(RouteFixtures.known(origin: (icao, iata, "x")))
            }
        }
        let wrongTypes =
            #"{"response":{"flightroute":{"origin":{"icao_code":1234,"iata_code":["LHR"],"name":7},"destination":{"iata_code":"JFK","name":null}}}}"#
        #expect(throws: RouteError(.malformed, "answer's origin has no valid ICAO or IATA code")) {
            try Self.parse(wrongTypes)
        }
    }

    @Test func namesAreCleanedAndCut() throws {
        let long = String(repeating: "Ä", count: 500)
        let response = try Self.parse(
            RouteFixtures.known(
                origin: ("EGLL", "LHR", "  London\\u0007 \\n\\t Heathrow\\u202E  "),
                destination: ("KJFK", "JFK", long)))
        guard case .route(let route) = response else {
            Issue.record("no route: \(response)")
            return
        }
        #expect(route.origin.name == "London Heathrow")
        #expect(route.destination.name == String(repeating: "Ä", count: RouteResponse.maximumTextLength))
        #expect(RouteResponse.text("\u{0}\u{1}\u{200B}") == nil)
        #expect(RouteResponse.text("Zürich") == "Zürich")
    }

    @Test func hugeBodiesAreRefused() {
        let padding = String(repeating: " ", count: RouteResponse.maximumBodyBytes)
        #expect(
            throws: RouteError(
                .tooLarge,
                "answer of \(RouteFixtures.known().utf8.count + padding.utf8.count) bytes, over the limit of 65536")
        ) {
            try Self.parse(RouteFixtures.known() + padding)
        }
    }

    /// Random bytes and mutations of real answers: whatever comes in, the parser returns or
    /// throws a one-line error; a route it returns has clean codes and names.
    @Test func arbitraryBytesNeverTrap() {
        var generator = SplitMix(state: 0x5EED_0F_2047)
        let seeds = [RouteFixtures.known(), RouteFixtures.unknown, #"{"response":{"flightroute":{}}}"#].map {
            Array($0.utf8)
        }
        var outcomes = [0, 0, 0]
        for round in 0..<4_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...8, using: &generator) where !bytes.isEmpty {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0...3, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.remove(at: index)
                    case 2: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 16)], at: index)
                    default: bytes.insert(Array("[{\"\\:,0".utf8).randomElement(using: &generator)!, at: index)
                    }
                }
            }
            do {
                switch try RouteResponse.parse(status: 200, body: bytes, callsign: "FUZZ1") {
                case .route(let route):
                    outcomes[0] += 1
                    for airport in [route.origin, route.destination] {
                        #expect(airport.icao != nil || airport.iata != nil)
                        for code in [airport.icao, airport.iata].compactMap({ $0 }) {
                            #expect(
                                (3...4).contains(code.count)
                                    && code.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) })
                        }
                        for text in [airport.name, airport.municipality].compactMap({ $0 }) {
                            #expect(!text.isEmpty && text.count <= RouteResponse.maximumTextLength)
                            #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control })
                        }
                    }
                case .unknown:
                    outcomes[1] += 1
                }
            } catch {
                outcomes[2] += 1
                #expect(!error.message.contains("\n") && !error.message.isEmpty)
            }
        }
        // The mutations must reach every outcome, or the test exercises too little.
        #expect(outcomes.allSatisfy { $0 >= 10 }, "outcomes \(outcomes)")
    }

    @Test func deepNestingIsRefusedWithoutTrapping() {
        let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
        #expect(throws: RouteError.self) { try Self.parse(deep) }
        let deepObject = String(repeating: #"{"response":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)
        #expect(throws: RouteError.self) { try Self.parse(deepObject) }
    }
}
