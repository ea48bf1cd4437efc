import FoundationEssentials
import ModeS
import Pipeline
import Receivers
import Support
import Tracking

/// The input is the body of an OpenSky `/api/states/all` response; each state vector that
/// decodes is turned into a tracker state, against the response's own time and against a
/// fixed local clock. The same bytes, as text, are also read as the `Retry-After` header of
/// a refusal (seconds or an HTTP date).
///
/// Checks: a decoded vector has a six-hex-digit address, a position on the globe and
/// physical values within the ranges the decoder promises; its tracker state is never later
/// than the local clock and has finite numbers. A retry-after wait is never negative nor
/// longer than the policy's cap.
enum OpenSkyTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        try retryAfter(String(decoding: input, as: UTF8.self))
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
            for value in [
                vector.baroAltitude, vector.geoAltitude, vector.velocity, vector.trueTrack, vector.verticalRate,
                vector.timePosition, vector.lastContact
            ] {
                if let value { try check(value.isFinite && abs(value) <= 4_102_444_800, "\(what): value \(value)") }
            }
            for now in [response.time, 1_700_000_000] {
                guard let state = vector.report(now: now) else {
                    throw FuzzFailure("\(what): no state report for address \(vector.icao24)")
                }
                try check(state.lastSeen <= now || now.isNaN, "\(what): seen at \(state.lastSeen), after now (\(now))")
                try check(state.groundSpeedKt?.isFinite ?? true, "\(what): ground speed \(state.groundSpeedKt ?? 0)")
                if let time = state.positionTime {
                    try check(time <= now || now.isNaN, "\(what): position at \(time), after now (\(now))")
                }
            }
        }
    }

    /// `text` as a `Retry-After` header, at a fixed time (the day the sample HTTP date of
    /// RFC 9110 names, so that dates near it give waits inside the cap).
    private static func retryAfter(_ text: String) throws(FuzzFailure) {
        let policy = RetryPolicy()
        guard let wait = policy.retryAfter(header: text, now: Date(timeIntervalSince1970: 784_100_000)) else { return }
        try check(wait >= .zero && wait <= policy.maximumRetryAfter, "Retry-After \(text): a wait of \(wait)")
    }
}
