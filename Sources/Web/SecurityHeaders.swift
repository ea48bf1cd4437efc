import HTTPTypes

/// The headers every answer carries. The page may load scripts, styles, images and its
/// WebSocket from the daemon itself only, may not be framed by another site, and sends no
/// referrer; browsers must not guess content types.
enum SecurityHeaders {
    /// Everything from this origin only; `data:` images for icons drawn by the app itself.
    /// `connect-src 'self'` covers the same-origin `ws:`/`wss:` feed in current browsers.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "media-src 'self' data:; manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'none'"

    /// Adds the headers to `headers`.
    static func apply(to headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[Self.frameOptions] = "DENY"
        headers[Self.referrerPolicy] = "no-referrer"
        headers[Self.openerPolicy] = "same-origin"
        if headers[.crossOriginResourcePolicy] == nil { headers[.crossOriginResourcePolicy] = "same-origin" }
        // The radar may ask for the compass, location and (for the sky view) the camera; nothing
        // else, and no other site.
        headers[Self.permissionsPolicy] =
            "geolocation=(self), accelerometer=(self), gyroscope=(self), magnetometer=(self), camera=(self), "
            + "microphone=()"
    }
}

extension SecurityHeaders {
    // Header names swift-http-types has no constant for; valid tokens, so the force is safe.
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let openerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
    static let permissionsPolicy = HTTPField.Name("Permissions-Policy")!
}
