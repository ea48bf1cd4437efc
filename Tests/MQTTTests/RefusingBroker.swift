import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A broker of the fewest MQTT 3.1.1 packets that answers every subscription with a refusal
/// (return code 0x80 in its SUBACK), as brokers whose access rules deny a filter do;
/// mosquitto never does, it grants every filter and filters on delivery. It accepts one
/// connection at a time on 127.0.0.1, grants the CONNECT, answers PINGREQ, and counts the
/// subscriptions it refused.
final class RefusingBroker: Sendable {
    let port: Int
    private let listener: Int32
    private let refusals = Mutex(0)

    /// Subscriptions refused so far.
    var refused: Int { refusals.withLock { $0 } }

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Shuts the listening socket, which ends the accepting thread once the connection it
    /// serves (if any) is over. The thread closes the socket itself: closed here, its number
    /// could go to another test's new socket while the thread still accepts on it.
    func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func serve() {
        while case let connection = accept(listener, nil, nil), connection >= 0 {
            talk(on: connection)
            close(connection)
        }
        close(listener)
    }

    /// Answers the client's packets until it goes away.
    private func talk(on connection: Int32) {
        func read(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + done, count - done, 0) }
                guard got > 0 else { return nil }
                done += got
            }
            return bytes
        }
        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, 0) }
        }
        while let header = read(1) {
            // The remaining length: seven bits a byte, least significant first.
            var length = 0
            var shift = 0
            while let byte = read(1)?.first {
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 || shift > 21 { break }
            }
            guard let body = read(length) else { return }
            switch header[0] >> 4 {
            case 1: send([0x20, 0x02, 0x00, 0x00])  // CONNECT: accepted
            case 8:  // SUBSCRIBE: refuse every filter of it
                guard body.count >= 2 else { return }
                var filters = 0
                var at = 2
                while at + 2 <= body.count {
                    at += 2 + (Int(body[at]) << 8 | Int(body[at + 1])) + 1
                    filters += 1
                }
                // Counted before the answer goes out: the client may read the count as soon as
                // it has the answer.
                refusals.withLock { $0 += filters }
                send([0x90, UInt8(2 + filters), body[0], body[1]] + [UInt8](repeating: 0x80, count: filters))
            case 12: send([0xD0, 0x00])  // PINGREQ
            case 14: return  // DISCONNECT
            default: break
            }
        }
    }
}
