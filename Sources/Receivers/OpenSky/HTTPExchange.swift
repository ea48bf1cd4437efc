import AsyncHTTPClient
import FoundationEssentials
import ModeS
import NIOCore
import NIOHTTP1
import Pipeline
import Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP request and its whole response, within a timeout: the building block of the
/// OpenSky client and the token provider.
///
/// The timeout covers everything, from connecting to the last byte of the body, because the
/// API's failure mode is to accept the connection and then say nothing. The HTTP client's
/// deadline enforces it (and, for a connection it kept failing to make, says why); a timer
/// half a second later is the backstop. Transport failures
/// come out as `OpenSkyError` (`.timeout` or `.connection`); HTTP statuses do not: the caller
/// decides what a status means.
struct HTTPExchange: Sendable {
    /// A received response.
    struct Response: Sendable {
        var status: Int
        /// Header values by lower-cased name (the first of repeated headers).
        var headers: [String: String]
        var body: Data
    }

    /// The client requests go through.
    let client: HTTPClient
    /// The limit for a whole exchange.
    let timeout: Duration
    /// How long after the client's deadline the backstop timer gives up on the request.
    static let backstopGrace = Duration.milliseconds(500)
    /// Bodies larger than this are cut off as an error: a receiver's box holds a few thousand
    /// aircraft at most, under a megabyte (the whole world's traffic is about 3 MB).
    var maximumBodyBytes = 4 << 20

    /// Sends `request` and collects the response; `what` names the request in error text
    /// ("states request", "token request").
    func perform(_ request: HTTPClientRequest, what: String) async throws -> Response {
        let client = self.client
        let timeout = self.timeout
        let limit = maximumBodyBytes
        do {
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask {
                    let deadline = NIODeadline.now() + TimeAmount.nanoseconds(Self.nanoseconds(timeout))
                    let response = try await client.execute(request, deadline: deadline)
                    let body = try await response.body.collect(upTo: limit)
                    var headers: [String: String] = [:]
                    for (name, value) in response.headers where headers[name.lowercased()] == nil {
                        headers[name.lowercased()] = value
                    }
                    return Response(
                        status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
                }
                group.addTask {
                    // The HTTP client's own deadline comes first and says why (a refused
                    // connection it kept retrying, say); this one is the backstop.
                    try await Task.sleep(for: timeout + Self.backstopGrace)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    try Task.checkCancellation()
                    throw OpenSkyError(.timeout, "OpenSky \(what) timed out after \(Self.seconds(timeout))")
                }
                return response
            }
        } catch let error as OpenSkyError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw Self.transportError(error, what: what, timeout: timeout)
        }
    }

    /// The OpenSky error for a failure of the HTTP client.
    static func transportError(_ error: any Error, what: String, timeout: Duration) -> OpenSkyError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded:
                return OpenSkyError(.timeout, "OpenSky \(what) timed out after \(seconds(timeout))")
            case .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return OpenSkyError(
                    .timeout, "OpenSky \(what) timed out after \(seconds(timeout)) (\(error.shortDescription))")
            default:
                return OpenSkyError(.connection, "OpenSky \(what) failed: \(error.shortDescription)")
            }
        }
        if let error = error as? IOError {
            // NIO's own text wraps the cause in the name of the call that failed.
            return OpenSkyError(
                .connection,
                "OpenSky \(what) failed: \(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))")
        }
        if let error = error as? NIOTooManyBytesError {
            return OpenSkyError(.malformed, "OpenSky \(what): response body over the size limit (\(error))")
        }
        return OpenSkyError(.connection, "OpenSky \(what) failed: \(OpenSkyError.oneLine(String(describing: error)))")
    }

    /// A duration as the log shows it, e.g. "15 s", "2.4 s" or "20 ms".
    static func seconds(_ duration: Duration) -> String {
        let value = duration.inSeconds
        if value < 1 && value != 0 && (value * 10).rounded() != value * 10 {
            return "\(Int((value * 1000).rounded())) ms"
        }
        return value == value.rounded() ? "\(Int(value)) s" : DecimalText.fixed(value, places: 1) + " s"
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}

extension HTTPClientError {
    /// "connectTimeout" rather than "HTTPClientError.connectTimeout".
    var shortDescription: String {
        let text = String(describing: self)
        return OpenSkyError.oneLine(text.hasPrefix("HTTPClientError.") ? String(text.dropFirst(16)) : text)
    }
}
