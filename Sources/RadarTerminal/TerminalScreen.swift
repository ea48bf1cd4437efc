import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal as a full screen: raw keyboard input (no echo, no line editing, Ctrl-C as a
/// key), the alternate screen so the shell's scrollback is left as it was, and no cursor.
/// `restore()` undoes all of it and is safe to call more than once.
package final class TerminalScreen {
    private let input: Int32
    private let output: Int32
    private var original = termios()
    private var active = false

    /// A screen on the process's standard input and output.
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Whether both standard input and output are terminals, which the full-screen radar needs.
    package static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// The size of the terminal on `fd` in columns and rows; nil when it is not a terminal.
    package static func size(of fd: Int32 = STDOUT_FILENO) -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Switches to raw mode and the alternate screen.
    package func enter() throws(FeedClientError) {
        guard tcgetattr(input, &original) == 0 else {
            throw FeedClientError("cannot read the terminal settings: \(String(cString: strerror(errno)))")
        }
        var raw = original
        // Keys arrive one by one, unechoed; Ctrl-C and Ctrl-Z arrive as bytes instead of
        // signals, so the radar decides how to stop and the terminal is always restored.
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag |= tcflag_t(CS8)
        // Reads return at once with whatever is there; the loop waits with poll().
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw FeedClientError("cannot switch the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        active = true
        // Alternate screen, hidden cursor, black background, cleared.
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J\u{1B}[H")
    }

    /// Back to the terminal as it was: main screen, cursor visible, settings restored.
    package func restore() {
        guard active else { return }
        active = false
        write("\u{1B}[0m\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSAFLUSH, &original)
    }

    /// Writes text to the terminal.
    package func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(output, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
        bytes.removeAll()
    }

    /// Waits up to `seconds` for keyboard input and returns what is there: empty on timeout,
    /// nil when the terminal is gone (hung up), after which the radar should stop.
    package func readInput(waiting seconds: Double) -> [UInt8]? {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(seconds * 1000))
        if ready < 0 { return errno == EINTR ? [] : nil }
        guard ready > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if count == 0 { return descriptor.revents & Int16(POLLHUP) != 0 ? nil : [] }
        return Array(buffer[0..<count])
    }

    deinit { restore() }
}
