import TestSupport
import Testing

@testable import ModeSDemod

/// The interrogator codes each aircraft has answered with: how far a code stands as its
/// own, what a code one bit away does to that, and what the table forgets.
@Suite(.computeBound) struct AddressCodesTests {
    @Test func aCodeStandsOnceThenRepeatedly() {
        var codes = AddressCodes()
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 0) == .unknown)
        codes.record(0x15, address: 0x4840D6, time: 1)
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 2) == .once)
        codes.record(0x15, address: 0x4840D6, time: 3)
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 4) == .repeated)
        // Another aircraft, another code: neither is this one's.
        #expect(codes.standing(of: 0x15, address: 0x3C6585, at: 4) == .unknown)
        #expect(codes.standing(of: 0x16, address: 0x4840D6, at: 4) == .unknown)
        // The top code (127) is kept like any other.
        codes.record(127, address: 0x3C6585, time: 5)
        #expect(codes.standing(of: 127, address: 0x3C6585, at: 5) == .once)
    }

    @Test func aCodeOneBitFromAnotherOfTheSameAircraftIsNotItsOwn() {
        var codes = AddressCodes()
        codes.record(0x15, address: 0x4840D6, time: 1)
        codes.record(0x15, address: 0x4840D6, time: 2)
        codes.record(0x2A, address: 0x4840D6, time: 3)
        // 0x2A differs from 0x15 in six bits: far apart, both stand.
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 4) == .repeated)
        #expect(codes.standing(of: 0x2A, address: 0x4840D6, at: 4) == .once)
        // 0x14 is one bit from 0x15: once both are heard, neither stands.
        codes.record(0x14, address: 0x4840D6, time: 5)
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 6) == .unknown)
        #expect(codes.standing(of: 0x14, address: 0x4840D6, at: 6) == .unknown)
        // Code 0, which every aircraft sends, counts too: a code of one set bit never stands.
        codes.record(0x20, address: 0x3C6585, time: 7)
        #expect(codes.standing(of: 0x20, address: 0x3C6585, at: 7) == .once)
        codes.record(0, address: 0x3C6585, time: 8)
        #expect(codes.standing(of: 0x20, address: 0x3C6585, at: 8) == .unknown)
    }

    @Test func anAircraftUnheardForTheKeepWindowIsForgotten() {
        var codes = AddressCodes()
        codes.record(0x15, address: 0x4840D6, time: 10)
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 10 + AddressCodes.keepWindow) == .once)
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 11 + AddressCodes.keepWindow) == .unknown)
        // Heard again after that, it starts afresh: once, not repeated.
        codes.record(0x15, address: 0x4840D6, time: 11 + AddressCodes.keepWindow)
        #expect(codes.standing(of: 0x15, address: 0x4840D6, at: 12 + AddressCodes.keepWindow) == .once)
    }

    @Test func aFullTableForgetsTheAircraftHeardLeastRecently() {
        // Eight entries: every address shares the one probe window.
        var codes = AddressCodes(capacity: 8)
        for index in 0..<8 { codes.record(0x15, address: UInt32(0x100 + index), time: Double(index)) }
        for index in 0..<8 { #expect(codes.standing(of: 0x15, address: UInt32(0x100 + index), at: 8) == .once) }
        // The first aircraft is heard again, so the second is now the least recent.
        codes.record(0x15, address: 0x100, time: 9)
        codes.record(0x15, address: 0x200, time: 10)
        #expect(codes.standing(of: 0x15, address: 0x200, at: 10) == .once)
        #expect(codes.standing(of: 0x15, address: 0x100, at: 10) == .repeated)
        #expect(codes.standing(of: 0x15, address: 0x101, at: 10) == .unknown)
        for index in 2..<8 { #expect(codes.standing(of: 0x15, address: UInt32(0x100 + index), at: 10) == .once) }
    }
}
