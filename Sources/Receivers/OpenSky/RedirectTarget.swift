import FoundationEssentials
import ModeS
import Support

/// Where a 3xx answer points, and whether it stays on the server that was asked.
///
/// The HTTP client follows no redirect by itself (see `OpenSkySource`): a redirect could
/// send a request, with its bearer token or the client secret, to any host. The states
/// request follows one only to the same origin, the same scheme, host and port, where the
/// token was going anyway; the token request follows none.
struct RedirectTarget: Equatable, Sendable {
    /// The absolute URL of the new location.
    let url: String
    /// The new location's origin, `scheme://host:port`, as shown in error text.
    let origin: String
    /// Whether the new location has the origin of the request that was redirected.
    let isSameOrigin: Bool

    /// The target of a `Location` header value (absolute, or relative to `requestURL`); nil
    /// when there is none or it is not an http(s) URL with a host.
    init?(location: String?, requestURL: String) {
        guard let location = location.map({ String($0.trimmingWhitespace()) }), !location.isEmpty,
            let base = URL(string: requestURL), let origin = Self.origin(of: base),
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let targetOrigin = Self.origin(of: target)
        else { return nil }
        url = target.absoluteString
        self.origin = targetOrigin
        isSameOrigin = targetOrigin == origin
    }

    /// `scheme://host:port` in lower case with the scheme's default port filled in; nil
    /// unless the scheme is http or https and there is a host.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// `origin` without characters that do not belong on a log line.
    var printableOrigin: String { OpenSkyError.oneLine(origin, limit: 120) }
}
