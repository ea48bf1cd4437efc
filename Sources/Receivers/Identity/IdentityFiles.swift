import CompressNIO
import Identity
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing the identity data's files: plain or gzip-compressed (told apart by
/// the gzip magic bytes, whatever the name), within limits, so a 2 GB file or a gzip bomb is
/// refused with one line instead of filling memory.
package enum IdentityFiles {
    /// The largest file read as it lies on disk: 256 MB (tar1090-db's is about 10 MB).
    package static let maximumFileBytes = 256 << 20

    /// The bytes of the file at `path`, decompressed when it is gzip, at most `limit` of them;
    /// throws an `IdentityError` saying why when the file cannot be read, is too large, or
    /// does not decompress within the limit.
    package static func read(path: String, limit: Int) throws(IdentityError) -> [UInt8] {
        let raw = try readRaw(path: path)
        guard isGzip(raw) else {
            guard raw.count <= limit else { throw IdentityError("\(path) is larger than \(limit >> 20) MB") }
            return raw
        }
        return try gunzip(raw, name: path, limit: limit)
    }

    /// Whether `bytes` begin with the gzip magic bytes.
    package static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed bytes of the whole gzip file `raw`, at most `limit` of them; throws
    /// an `IdentityError` naming `name` when it is cut short, not gzip, or larger than that
    /// (a gzip bomb stops at the limit).
    package static func gunzip(_ raw: [UInt8], name: String, limit: Int) throws(IdentityError) -> [UInt8] {
        var buffer = ByteBuffer(bytes: raw)
        do {
            var output = try buffer.decompress(with: .gzip(), maxSize: limit)
            let bytes = output.readBytes(length: output.readableBytes) ?? []
            // A whole gzip file ends with its length modulo 2^32: a cut-off one does not match.
            let trailer = raw.suffix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
            guard raw.count >= 18, trailer == UInt32(truncatingIfNeeded: bytes.count) else {
                throw IdentityError("\(name) is not a complete gzip file")
            }
            return bytes
        } catch let error as IdentityError {
            throw error
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw IdentityError("\(name) decompresses to more than \(limit >> 20) MB")
        } catch {
            throw IdentityError("\(name) is not valid gzip")
        }
    }

    /// Writes `text` gzip-compressed to `path`, through a temporary file renamed over it.
    package static func writeCompressed(_ text: String, to path: String) throws(IdentityError) {
        var input = ByteBuffer(string: text)
        let compressed: [UInt8]
        do {
            var output = try input.compress(with: .gzip(configuration: .init(windowSize: 15, compressionLevel: 9)))
            compressed = output.readBytes(length: output.readableBytes) ?? []
        } catch {
            throw IdentityError("compressing the store failed: \(error)")
        }
        try writeAtomically(compressed, to: path)
    }

    /// Writes `bytes` to `path` through a temporary file beside it, flushed to disk and
    /// renamed over it: a reader sees the old file or the new one, never a part.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(IdentityError) {
        let temporary = path + ".tmp"
        guard let file = fopen(temporary, "wb") else {
            throw IdentityError("cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let flushed = fflush(file) == 0 && fsync(fileno(file)) == 0
        let closed = fclose(file)
        guard written == bytes.count, flushed, closed == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw IdentityError("cannot write \(path): \(reason)")
        }
    }

    /// The file's bytes as they are, refusing one larger than `maximumFileBytes`.
    private static func readRaw(path: String) throws(IdentityError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw IdentityError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var status = stat()
        if fstat(fileno(file), &status) == 0, Int(status.st_size) > maximumFileBytes {
            throw IdentityError("\(path) is larger than \(maximumFileBytes >> 20) MB")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumFileBytes else {
                throw IdentityError("\(path) is larger than \(maximumFileBytes >> 20) MB")
            }
        }
        guard ferror(file) == 0 else { throw IdentityError("cannot read \(path)") }
        return bytes
    }
}
