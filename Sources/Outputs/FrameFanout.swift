import Foundation
import Tracking
import ModeS
import Synchronization

/// Hands every frame the tracker accepts to the outputs: Beast and AVR bytes and SBS lines
/// into their servers' batches, the signal level into the record behind aircraft.json.
///
/// It runs on the receiving thread, so it only encodes into memory under short locks, and
/// skips the encoding of any output nobody is connected to.
public final class FrameFanout: Sendable {
    private let beast: TCPBroadcastServer?
    private let sbs: TCPBroadcastServer?
    private let avr: TCPBroadcastServer?
    private let signals: SignalLevels?
    /// The SBS encoder with the local time offset, and when that offset must be looked up
    /// again (daylight saving time changes it while the daemon runs).
    private let sbsClock = Mutex<(encoder: SBSEncoder, validUntil: Double)>((SBSEncoder(), 0))

    /// A fanout to whichever outputs are given.
    public init(beast: TCPBroadcastServer?, sbs: TCPBroadcastServer?, avr: TCPBroadcastServer?, signals: SignalLevels?) {
        self.beast = beast
        self.sbs = sbs
        self.avr = avr
        self.signals = signals
    }

    /// Registers with `tracker` for its accepted frames.
    public func attach(to tracker: LiveTracker) {
        tracker.addFrameListener { [self] update in
            if let frame = update.frame { handle(frame, update.message, update.aircraft) }
        }
    }

    /// Sends one accepted frame to the outputs.
    public func handle(_ frame: Frame, _ message: Message, _ aircraft: AircraftState) {
        signals?.record(icao: message.icao, dBFS: frame.signalLevel)
        if let beast, beast.hasClients {
            beast.append { BeastEncoder.append(frame, to: &$0) }
        }
        if let avr, avr.hasClients {
            avr.append { AVREncoder.append(frame.bits, to: &$0) }
        }
        if let sbs, sbs.hasClients {
            let now = Date().timeIntervalSince1970
            let encoder = sbsEncoder(at: now)
            if let line = encoder.line(for: message, aircraft: aircraft, receivedAt: now) {
                sbs.append { $0.append(contentsOf: line.utf8) }
            }
        }
    }

    /// The SBS encoder for local time at `now`, refreshed once a minute.
    private func sbsEncoder(at now: Double) -> SBSEncoder {
        sbsClock.withLock { clock in
            if now >= clock.validUntil {
                clock.encoder.utcOffsetSeconds = TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: now))
                clock.validUntil = now + 60
            }
            return clock.encoder
        }
    }
}
