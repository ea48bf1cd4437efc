import FeedProtocol
import Foundation
import Testing

/// `stat(2)` as Swift values: type, owner, mode and size, by path (links followed or not) and
/// by descriptor.
@Suite struct FileStatusTests {
    @Test func aFileADirectoryAndALinkAsStatSeesThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "status-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o750)
        let file = folder.appendingPathComponent("five").path
        try Data("12345".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o640)
        let link = folder.appendingPathComponent("link").path
        try #require(symlink(folder.path, link) == 0)

        let directory = try #require(FileStatus(path: folder.path))
        #expect(directory.isDirectory && !directory.isRegularFile)
        #expect(directory.mode & 0o777 == 0o750)
        #expect(directory.owner == geteuid())

        let regular = try #require(FileStatus(path: file))
        #expect(regular.isRegularFile && !regular.isDirectory)
        #expect(regular.size == 5 && regular.mode & 0o777 == 0o640)

        #expect(FileStatus(path: link)?.isDirectory == true, "a link to a directory, followed")
        let linkItself = try #require(FileStatus(path: link, followLinks: false))
        #expect(!linkItself.isDirectory && !linkItself.isRegularFile)

        let descriptor = open(file, O_RDONLY)
        defer { close(descriptor) }
        #expect(FileStatus(descriptor: descriptor) == regular)

        #expect(FileStatus(path: folder.appendingPathComponent("missing").path) == nil)
        #expect(errno == ENOENT)
        #expect(FileStatus(descriptor: -1) == nil)
    }
}
