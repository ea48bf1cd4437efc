#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat(2)` says of a file: its type, owner, mode and size, as plain Swift values.
///
/// Modules that import swift-crypto (the web server's TLS) see the C library's `struct stat`
/// through the full Foundation's CoreFoundation module, whose members their files may not
/// use (member import visibility, which keeps the full Foundation out of the binary: see
/// docs/install.md, the binary's size). They ask here, where `struct stat` is the C library's.
package struct FileStatus: Sendable, Equatable {
    /// The whole `st_mode`: the file type bits and the permission bits.
    package var mode: UInt32
    /// The owner's user id.
    package var owner: UInt32
    /// The size in bytes.
    package var size: Int

    /// The status of the file at `path`, of a final symbolic link itself when `followLinks`
    /// is false; nil, with `errno` set, when there is none.
    package init?(path: String, followLinks: Bool = true) {
        var info = stat()
        guard (followLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        self.init(info)
    }

    /// The status of the open file `descriptor`; nil, with `errno` set, when there is none.
    package init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        mode = UInt32(info.st_mode)
        owner = UInt32(info.st_uid)
        size = Int(info.st_size)
    }

    /// Whether it is a directory.
    package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }

    /// Whether it is a regular file.
    package var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
}
