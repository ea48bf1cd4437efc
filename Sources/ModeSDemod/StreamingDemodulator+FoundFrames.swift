import ModeS

/// What becomes of a frame once a start gave it: stamped with its time and level, dropped
/// when it repeats one found nearby, queued for emission in time order, counted, and, when
/// another signal runs past its ends, cancelled so that the search goes on beneath it.
extension StreamingDemodulator {
    /// Records `frame`, which `examine` found at `position`, and, when another signal runs
    /// past either end of it, looks for that signal with the frame cancelled. Returns where
    /// to resume the search.
    func accept(_ frame: Frame, at position: Int, phase: Int, floor: UInt32, emit: (Frame) -> Void) -> Int {
        let samples = UnsafePointer(buffers.magnitudes + (position - buffers.start))
        let bits = frame.bits
        record(frame, at: position, phase: phase, samples: samples)
        let span = kernels.span(bitCount: bits.bitCount)
        searchState.insideFrameUntil = max(searchState.insideFrameUntil, position + span)
        // The gate measures 24 × (mean pulse − mean quiet); require that difference to
        // exceed `insideStrengthSixteenths`/16 of this frame's pulse level above the floor.
        let level = max(0, detector.pulseMean(at: samples, phase: phase) - Double(floor))
        searchState.insideGateThreshold = Int32(
            min(Double(Int32.max / 2), 24 * level * Double(options.insideStrengthSixteenths) / 16))
        if options.cancelOverlaps {
            let sides = recovery.sidesRunningPast(
                bits, samples, floor: floor, level: level,
                before: position - buffers.start)
            if sides.any { searchWithout(bits, at: position, phase: phase, floor: floor, sides: sides) }
        }
        pending.release(before: position - buffers.lookback, emit: emit)
        return position + (options.searchInsideFrames ? kernels.preambleSpan : span)
    }

    /// Stamps and counts a validated frame and queues it for emission, unless it repeats a
    /// frame accepted nearby. `recovered`: found beneath a cancelled reply. Returns whether
    /// it was new.
    @discardableResult
    func record(
        _ validated: Frame, at position: Int, phase: Int, samples: UnsafePointer<UInt16>,
        recovered: Bool = false
    ) -> Bool {
        var frame = validated
        let offset = kernels.phaseOffsets[phase]
        frame.timestamp = clock.timestamp(at: position, offsetTenths: offset)
        frame.signalLevel = kernels.signalLevel(at: samples, phase: phase, bitCount: frame.bits.bitCount)
        let span = kernels.span(bitCount: frame.bits.bitCount)
        guard recent.insert(frame.bits, at: position, phase: phase, within: span) else {
            statistics.duplicates += 1
            return false
        }
        if options.cancelOverlaps, !codesStandFollowers(frame.bits, at: position, phase: phase) {
            statistics.codesTurnedByFollower += 1
            return false
        }
        switch frame.downlinkFormat {
        case 11, 17, 18:
            if heard.seen.insert(frame.address) { heard.near.insert(frame.address) }
            heard.squitterReports.record(frame.bits, address: frame.address, at: clock.seconds(at: position))
        default: break
        }
        tally(frame, recovered: recovered, by: 1)
        pending.append(frame, at: position, recovered: recovered)
        return true
    }

    /// Counts a queued frame in the statistics (`by: 1`), or takes it back out (`by: -1`)
    /// when the follower check takes the frame back from the queue. `recovered`: found beneath a
    /// cancelled reply.
    func tally(_ frame: Frame, recovered: Bool, by delta: Int) {
        statistics.framesPerFormat[frame.downlinkFormat] += delta
        if frame.correctedBits > 0 { statistics.correctedFrames += delta }
        if recovered { statistics.recoveredFromOverlaps += delta }
    }
}
