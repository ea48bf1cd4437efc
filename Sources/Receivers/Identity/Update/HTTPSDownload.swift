import AsyncHTTPClient
import FoundationEssentials
import Identity
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Support

/// One file fetched over HTTPS for `aviator-adsb db update`, within limits, as one held in
/// memory: the server is from outside and may be hostile. Only `https://` URLs are asked,
/// and redirects are followed by hand, at most `maximumRedirects` of them and only to
/// `https://` again; the body stops at `maximumBytes` (announced or sent), the whole
/// exchange at `timeout`. A failure is an `IdentityError` of one line.
package struct HTTPSDownload: Sendable {
    /// The most bytes a body may have: 200 MB by default (the standing data's archive is
    /// about 10 MB, tar1090-db's aircraft.csv.gz about 10 MB).
    package var maximumBytes = 200 << 20
    /// The longest the whole download may take, redirects included.
    package var timeout: Duration = .seconds(300)
    /// The most redirects followed.
    package var maximumRedirects = 5
    /// A PEM file of certificates to trust instead of the system's (a mirror of one's own, a
    /// test server); nil for the system's.
    package var caFile: String?

    /// A download with the default limits.
    package init() {}

    /// The body of `url`, told in `progress` (bytes so far) as it arrives; throws an
    /// `IdentityError` when the URL is not HTTPS, the server cannot be reached or answers
    /// other than 200, the body is larger than allowed or cut short, or time runs out.
    package func fetch(_ url: String, progress: @escaping @Sendable (Int) -> Void) async throws(IdentityError)
        -> [UInt8]
    {
        try Self.checkHTTPS(url)
        let client = try makeClient()
        let limit = timeout
        let result: Result<[UInt8], IdentityError> = await withTaskGroup(of: Result<[UInt8], IdentityError>?.self) {
            group in
            group.addTask { await follow(url, client: client, progress: progress) }
            group.addTask {
                try? await Task.sleep(for: limit)
                return Task.isCancelled ? nil : .failure(IdentityError("no whole answer within \(Self.seconds(limit))"))
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .failure(IdentityError("the download was cancelled"))
        }
        try? await client.shutdown()
        return try result.get()
    }

    /// Follows `url` through its redirects to a 200 answer and reads that answer's body.
    private func follow(_ url: String, client: HTTPClient, progress: @escaping @Sendable (Int) -> Void) async
        -> Result<[UInt8], IdentityError>
    {
        var current = url
        for _ in 0...maximumRedirects {
            do {
                var request = HTTPClientRequest(url: current)
                request.headers.add(name: "User-Agent", value: "aviator-adsb")
                // The client's own deadline is a backstop; `fetch`'s race ends the download first.
                let response = try await client.execute(
                    request, timeout: .nanoseconds((timeout + .seconds(10)).nanoseconds))
                let status = Int(response.status.code)
                // After a redirect, the line names the server that answered.
                let host = current == url ? "the server" : URL(string: current)?.host ?? "the server"
                if (300..<400).contains(status) {
                    guard
                        let target = RedirectTarget(
                            location: response.headers.first(name: "location"), requestURL: current)
                    else { return .failure(IdentityError("\(host) answered HTTP \(status) without a usable Location")) }
                    try Self.checkHTTPS(target.url)
                    current = target.url
                    continue
                }
                guard status == 200 else { return .failure(IdentityError("\(host) answered HTTP \(status)")) }
                return .success(try await read(response, from: host, progress: progress))
            } catch let error as IdentityError {
                return .failure(error)
            } catch {
                return .failure(IdentityError(Self.describe(error)))
            }
        }
        return .failure(IdentityError("more than \(maximumRedirects) redirects"))
    }

    /// The body of `response`, within `maximumBytes` and as long as it announced.
    private func read(_ response: HTTPClientResponse, from host: String, progress: (Int) -> Void) async throws
        -> [UInt8]
    {
        let announced = response.headers.first(name: "content-length").flatMap { Int($0) }
        let tooLarge = IdentityError("\(host) sends more than \(maximumBytes >> 20) MB (--max-download-mb)")
        if let announced, announced > maximumBytes { throw tooLarge }
        var bytes: [UInt8] = []
        // What a server announces is room made, at most 64 MB ahead of what it sent.
        bytes.reserveCapacity(min(max(announced ?? 0, 0), 64 << 20))
        var reported = 0
        for try await chunk in response.body {
            guard chunk.readableBytes <= maximumBytes - bytes.count else { throw tooLarge }
            bytes.append(contentsOf: chunk.readableBytesView)
            if bytes.count - reported >= 4 << 20 {
                reported = bytes.count
                progress(reported)
            }
        }
        if let announced, bytes.count != announced {
            throw IdentityError("\(host) ended the answer after \(bytes.count) of \(announced) bytes")
        }
        progress(bytes.count)
        return bytes
    }

    /// A client that follows no redirect itself, trusting `caFile` when there is one.
    private func makeClient() throws(IdentityError) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let caFile {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw IdentityError("cannot read the certificates of \(caFile)")
            }
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(30), read: .seconds(60))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Throws unless `url` is an `https://` URL with a host.
    static func checkHTTPS(_ url: String) throws(IdentityError) {
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "https", parsed.host?.isEmpty == false
        else {
            throw IdentityError("only https:// URLs are fetched, not \(OpenSkyError.oneLine(url, limit: 120))")
        }
    }

    /// What went wrong in the client, in words.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "the connection timed out"
            case .readTimeout: return "the server stopped sending (read timeout)"
            case .deadlineExceeded: return "no whole answer in time"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: break
            }
        }
        if let error = error as? HTTPParserError, error == .invalidEOFState {
            return "the server closed the connection before the whole answer"
        }
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the server's certificate is not trusted (--ca-file trusts a mirror's own)"
        }
        if text.contains("failedToValidateHostname") {
            return "the server's certificate is for another host"
        }
        if error is NIOSSLError || String(describing: type(of: error)).contains("SSL") {
            return "TLS failed: \(OpenSkyError.oneLine(text, limit: 160))"
        }
        return OpenSkyError.oneLine(String(describing: error), limit: 200)
    }

    /// `duration` as whole seconds, for messages.
    static func seconds(_ duration: Duration) -> String {
        "\(Int(duration.inSeconds.rounded())) s"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, as NIO's `TimeAmount` takes it.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
