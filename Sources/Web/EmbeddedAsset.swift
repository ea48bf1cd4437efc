import CompressNIO
import Crypto
import NIOCore

/// One file of the web app, held in memory as the server sends it: its type, an ETag for
/// revalidation and, for text that shrinks by at least a tenth, a gzip copy made once at start.
struct EmbeddedAsset: Sendable {
    /// Path under which it is served, starting with "/".
    let path: String
    /// `Content-Type`.
    let contentType: String
    /// The file itself.
    let body: ByteBuffer
    /// The same bytes gzipped, when that pays.
    let gzipped: ByteBuffer?
    /// A strong ETag of the file as it is: a digest of the content, quoted.
    let etag: String
    /// The strong ETag of the gzip copy: another representation, so another tag.
    let gzipETag: String

    /// Smallest file worth compressing: below a typical packet, gzip saves nothing.
    static let compressionThreshold = 1024

    /// An asset for `name` (a file name under the app's folder) with its bytes.
    init(name: String, bytes: [UInt8]) {
        path = "/" + name
        contentType = Self.contentType(of: name)
        body = ByteBuffer(bytes: bytes)
        let digest = SHA256.hash(data: bytes).prefix(12).map { String(format2: $0) }.joined()
        etag = "\"" + digest + "\""
        gzipETag = "\"" + digest + "-gzip\""
        gzipped = Self.compressed(bytes, contentType: contentType)
    }

    /// The gzip copy, when the type is text and the result is at least 10% smaller.
    private static func compressed(_ bytes: [UInt8], contentType: String) -> ByteBuffer? {
        guard bytes.count >= compressionThreshold, isCompressible(contentType) else { return nil }
        var source = ByteBuffer(bytes: bytes)
        guard let packed = try? source.compress(with: .gzip()), packed.readableBytes * 10 < bytes.count * 9 else {
            return nil
        }
        return packed
    }

    /// Text formats compress well; images such as PNG are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/javascript")
            || contentType.hasPrefix("application/json") || contentType.hasPrefix("application/manifest+json")
            || contentType.hasPrefix("image/svg+xml")
    }

    /// The `Content-Type` for a file name's extension.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map(String.init) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "application/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        case "wav": "audio/wav"
        default: "application/octet-stream"
        }
    }
}

extension String {
    /// Two lower-case hex digits.
    fileprivate init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self.init([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
