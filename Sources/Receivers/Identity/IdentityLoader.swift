import Identity
import Logging
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Loads the identity store and the `--db-file` aircraft database on a thread of its own
/// after the daemon starts, and installs each in the `IdentityDirectory` when it is read:
/// frames flow meanwhile, and aircraft simply gain their identity a moment later. A file
/// that cannot be used is one warning line; bad rows in a usable file are one line with
/// their counts.
package enum IdentityLoader {
    /// The most a decompressed `--db-file` may hold: 512 MB (the real one is about 40 MB).
    package static let maximumDatabaseBytes = 512 << 20

    /// Starts loading `storePath` and then `databasePath` (either may be nil) into `directory`.
    package static func start(
        storePath: String?, databasePath: String?, into directory: IdentityDirectory, logger: Logger
    ) {
        guard storePath != nil || databasePath != nil else { return }
        DedicatedThread.start(name: "identity") {
            if let storePath { loadStore(storePath, into: directory, logger: logger) }
            if let databasePath { loadDatabase(databasePath, into: directory, logger: logger) }
            releaseFreedMemory()
        }
    }

    /// Hands the memory the reading used and freed (the decompressed text, the rows before
    /// sorting) back to the system, so the daemon's resident size is what the tables hold.
    package static func releaseFreedMemory() {
        #if canImport(Glibc)
            // glibc's malloc_trim, which its module map leaves out (malloc.h), found at run time.
            typealias Trim = @convention(c) (Int) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
                _ = unsafeBitCast(symbol, to: Trim.self)(0)
            }
        #endif
    }

    /// Loads the store at `path`; returns it, or nil after logging why it could not.
    @discardableResult
    package static func loadStore(_ path: String, into directory: IdentityDirectory, logger: Logger)
        -> IdentityStore?
    {
        let started = ContinuousClock.now
        do throws(IdentityError) {
            let bytes = try IdentityFiles.read(path: path, limit: IdentityStoreFile.maximumBytes)
            let store = try bytes.withUnsafeBufferPointer { buffer throws(IdentityError) in
                try IdentityStoreFile.parse(buffer)
            }
            directory.install(store: store)
            logger.info(
                "identity store \(path): \(store.types.count) types, \(store.airports.count) airports, \(store.routes.count) routes, \(store.aircraft.count) aircraft in \(milliseconds(since: started)) ms\(skipped(store.problems))"
            )
            return store
        } catch {
            logger.warning("identity store not loaded: \(error.message)")
            return nil
        }
    }

    /// Loads the aircraft database at `path`; returns it, or nil after logging why it could not.
    @discardableResult
    package static func loadDatabase(_ path: String, into directory: IdentityDirectory, logger: Logger)
        -> AircraftDatabase?
    {
        let started = ContinuousClock.now
        do throws(IdentityError) {
            let bytes = try IdentityFiles.read(path: path, limit: maximumDatabaseBytes)
            let database = bytes.withUnsafeBufferPointer { AircraftDatabase(csv: $0) }
            guard database.count > 0 else { throw IdentityError("\(path) has no usable rows") }
            directory.install(database: database)
            logger.info(
                "aircraft database \(path): \(database.count) aircraft in \(milliseconds(since: started)) ms\(skipped(database.problems))"
            )
            return database
        } catch {
            logger.warning("aircraft database not loaded: \(error.message)")
            return nil
        }
    }

    /// "; skipped: 3 malformed", or nothing when no row was skipped.
    static func skipped(_ problems: LoadProblems) -> String {
        problems.total == 0 ? "" : "; skipped: \(problems.summary)"
    }

    /// Whole milliseconds from `start` to now.
    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        Int(((ContinuousClock.now - start).inSeconds * 1000).rounded())
    }
}
