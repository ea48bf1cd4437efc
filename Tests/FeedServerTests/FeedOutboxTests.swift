import Testing

@testable import FeedServer

@Suite struct FeedOutboxTests {
    @Test func aNewerFrameReplacesAWaitingOne() {
        var outbox = FeedOutbox<String>(stallTimeout: 5)
        let result1 = outbox.offerFrame("f1", now: 0)
        #expect(result1 == .queued(replaced: false))
        guard case .frame("f1") = outbox.nextWrite(writable: true) else {
            Issue.record("f1 not released")
            return
        }
        // f1 is still being written: f2 waits, f3 replaces it.
        let result2 = outbox.offerFrame("f2", now: 1)
        #expect(result2 == .queued(replaced: false))
        let result3 = outbox.nextWrite(writable: true)
        #expect(result3 == nil)
        let result4 = outbox.offerFrame("f3", now: 2)
        #expect(result4 == .queued(replaced: true))
        outbox.frameWritten()
        guard case .frame("f3") = outbox.nextWrite(writable: true) else {
            Issue.record("f3 not released")
            return
        }
        #expect(!outbox.hasPending)
    }

    @Test func controlLinesGoFirstInOrderAndAreBounded() {
        var outbox = FeedOutbox<String>(stallTimeout: 5)
        _ = outbox.offerFrame("frame", now: 0)
        let result5 = outbox.offerControl("a")
        #expect(result5)
        let result6 = outbox.offerControl("b")
        #expect(result6)
        let result7 = outbox.nextWrite(writable: false)
        #expect(result7 == nil)
        var order: [String] = []
        while let next = outbox.nextWrite(writable: true) {
            switch next {
            case .control(let line): order.append(line)
            case .frame(let line): order.append(line)
            }
        }
        #expect(order == ["a", "b", "frame"])
        for i in 0..<FeedOutbox<String>.maxControlLines {
            let accepted = outbox.offerControl("\(i)")
            #expect(accepted)
        }
        let refused = outbox.offerControl("one too many")
        #expect(!refused)
    }

    @Test func aClientThatDrainsNothingStalls() {
        var outbox = FeedOutbox<String>(stallTimeout: 3)
        _ = outbox.offerFrame("f1", now: 0)
        _ = outbox.nextWrite(writable: true)
        let result8 = outbox.offerFrame("f2", now: 1)
        #expect(result8 == .queued(replaced: false))  // behind since 1
        let result9 = outbox.offerFrame("f3", now: 3)
        #expect(result9 == .queued(replaced: true))
        let result10 = outbox.offerFrame("f4", now: 4.5)
        #expect(result10 == .stalled)
    }

    @Test func drainingResetsTheStallClock() {
        var outbox = FeedOutbox<String>(stallTimeout: 3)
        _ = outbox.offerFrame("f1", now: 0)
        _ = outbox.nextWrite(writable: true)
        _ = outbox.offerFrame("f2", now: 1)
        _ = outbox.offerFrame("f3", now: 3)
        outbox.frameWritten()  // slow, but reading
        _ = outbox.nextWrite(writable: true)
        let result11 = outbox.offerFrame("f4", now: 4.5)
        #expect(result11 == .queued(replaced: false))
        let result12 = outbox.offerFrame("f5", now: 7)
        #expect(result12 == .queued(replaced: true))
        let result13 = outbox.offerFrame("f6", now: 8)
        #expect(result13 == .stalled)
    }
}
