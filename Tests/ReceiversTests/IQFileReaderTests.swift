import Foundation
import IQ
import Testing

/// The recording reader hands over whole blocks, as a dongle does, whatever pieces its input
/// arrives in.
@Suite struct IQFileReaderTests {
    @Test(.timeLimit(.minutes(1)))
    func aPipeWrittenInSmallPiecesIsReadInWholeBlocks() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let path = "/proc/self/fd/\(descriptors[0])"
        let reader = try IQFileReader(path: path, blockSize: 4096)
        close(descriptors[0])
        let writer = descriptors[1]
        // 10,000 bytes in pieces of 1,000, each a moment apart, so each read finds one piece.
        let thread = Thread {
            let piece = [UInt8](repeating: 7, count: 1000)
            for _ in 0..<10 {
                _ = piece.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                Thread.sleep(forTimeInterval: 0.01)
            }
            close(writer)
        }
        thread.start()
        var sizes: [Int] = []
        let summary = try reader.forEachBlock { block in
            sizes.append(block.count)
            #expect(block.allSatisfy { $0 == 7 })
        }
        #expect(sizes == [4096, 4096, 1808])
        #expect(summary.bytes == 10_000)
    }
}
