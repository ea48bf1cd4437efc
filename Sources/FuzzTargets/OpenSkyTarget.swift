import Foundation
import ModeS
import Receivers
import Tracking

/// The input is the body of an OpenSky `/api/states/all` response; each state vector that
/// decodes is turned into a tracker state, against the response's own time and against a
/// fixed local clock.
///
/// Checks: a decoded vector has a six-hex-digit address, a position on the globe and
/// physical values within the ranges the decoder promises; its tracker state is never later
/// than the local clock and has finite numbers.
enum OpenSkyTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let response: StateVectorResponse
        do {
            response = try StateVectorResponse.decode(Data(input))
        } catch {
            return
        }
        try check(response.skippedRows == 0 || response.firstSkipReason != nil, "rows skipped without a reason")
        for (index, vector) in response.states.enumerated() {
            let what = "state \(index)"
            try check(vector.address != nil, "\(what): address \(vector.icao24) accepted")
            if let latitude = vector.latitude {
                try check((-90...90).contains(latitude), "\(what): latitude \(latitude)")
            }
            if let longitude = vector.longitude {
                try check((-180...180).contains(longitude), "\(what): longitude \(longitude)")
            }
            for value in [vector.baroAltitude, vector.geoAltitude, vector.velocity, vector.trueTrack, vector.verticalRate,
                          vector.timePosition, vector.lastContact] {
                if let value { try check(value.isFinite && abs(value) <= 4_102_444_800, "\(what): value \(value)") }
            }
            for now in [response.time, 1_700_000_000] {
                guard let state = vector.aircraftState(now: now) else {
                    throw FuzzFailure("\(what): no tracker state for address \(vector.icao24)")
                }
                try check(state.lastSeen <= now || now.isNaN, "\(what): seen at \(state.lastSeen), after now (\(now))")
                try check(state.groundSpeedKt?.isFinite ?? true, "\(what): ground speed \(state.groundSpeedKt ?? 0)")
                if let time = state.positionTime {
                    try check(time <= now || now.isNaN, "\(what): position at \(time), after now (\(now))")
                }
            }
        }
    }
}
