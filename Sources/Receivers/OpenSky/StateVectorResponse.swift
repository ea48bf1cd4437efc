import FoundationEssentials

/// The body of `/api/states/all`: `{"time": T, "states": [[...], ...] | null}`.
///
/// `"states": null` is how the API says the box is empty: an empty sky, not an error. A row
/// that does not decode is skipped and counted (with the first reason kept for the log line),
/// so one odd aircraft never blanks the others. A body that is not such an object at all
/// (empty, truncated, HTML from a proxy) is an error.
package struct StateVectorResponse: Sendable, Equatable {
    /// Why a body could not be read at all.
    package struct Malformed: Error, CustomStringConvertible, Equatable {
        /// What was wrong, for the log line.
        package let description: String
    }

    /// The time the data refers to, Unix seconds.
    package var time: Double
    /// The rows that decoded.
    package var states: [StateVector]
    /// Rows that were skipped as malformed.
    package var skippedRows: Int
    /// Why the first skipped row was skipped, for the log line.
    package var firstSkipReason: String?

    /// A response from its parts.
    package init(time: Double, states: [StateVector], skippedRows: Int = 0, firstSkipReason: String? = nil) {
        self.time = time
        self.states = states
        self.skippedRows = skippedRows
        self.firstSkipReason = firstSkipReason
    }

    /// Decodes a response body; throws `Malformed` when it is not a states object.
    package static func decode(_ body: Data) throws -> StateVectorResponse {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw Malformed(description: "empty response body")
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: body)
        } catch let error as Malformed {
            throw error
        } catch {
            throw Malformed(description: "malformed JSON (\(body.count) bytes): \(Self.summary(of: error))")
        }
        return StateVectorResponse(
            time: wire.time, states: wire.states, skippedRows: wire.skipped,
            firstSkipReason: wire.firstSkipReason)
    }

    /// The most rows read from one response: more than the whole world's traffic (about
    /// 15,000 aircraft at the busiest hour), let alone the receiver's box. Rows past it are
    /// skipped unread and counted, so a hostile body costs no more than this many vectors.
    static let maximumRows = 30_000

    /// A one-line summary of a decoding error (the default description is a multi-line dump).
    static func summary(of error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            let place = path.isEmpty ? "" : " at field \(path.last!)"
            // A JSON syntax error says where in its debug description ("NSDebugDescriptionErrorKey").
            let underlying = (context.underlyingError as? CocoaError)?.userInfo["NSDebugDescription"] as? String
            return context.debugDescription + place + (underlying.map { " (\($0))" } ?? "")
        case DecodingError.keyNotFound(let key, _):
            return "no \"\(key.stringValue)\" field"
        default:
            return "\(error)"
        }
    }

    /// The top-level object. Both keys must be there; `states` may be null. Rows are read one
    /// at a time and only the good ones kept: a body of millions of bad rows costs a count.
    private struct Wire: Decodable {
        var time: Double
        var states: [StateVector] = []
        var skipped = 0
        var firstSkipReason: String?

        enum CodingKeys: String, CodingKey { case time, states }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            time = try container.decode(Double.self, forKey: .time)
            guard container.contains(.states) else {
                throw Malformed(description: "no \"states\" field in the response")
            }
            if try container.decodeNil(forKey: .states) { return }
            var rows = try container.nestedUnkeyedContainer(forKey: .states)
            while !rows.isAtEnd {
                let index = rows.currentIndex
                if states.count + skipped >= StateVectorResponse.maximumRows {
                    _ = try rows.decode(Unread.self)
                    skipped += 1
                    if firstSkipReason == nil {
                        firstSkipReason = "row \(index): over \(StateVectorResponse.maximumRows) rows"
                    }
                    continue
                }
                switch try rows.decode(TolerantRow.self).result {
                case .success(let vector): states.append(vector)
                case .failure(let reason):
                    skipped += 1
                    if firstSkipReason == nil { firstSkipReason = "row \(index): \(reason)" }
                }
            }
        }
    }

    /// Any JSON value, passed over.
    private struct Unread: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// One row that always decodes, holding either the vector or why it was not one. Catching
    /// here (rather than around the read) lets the reading move on to the next row.
    private struct TolerantRow: Decodable {
        var result: Result<StateVector, RowError>

        init(from decoder: any Decoder) throws {
            do {
                result = .success(try StateVector(from: decoder))
            } catch {
                result = .failure(RowError(reason: StateVectorResponse.summary(of: error)))
            }
        }
    }

    private struct RowError: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
