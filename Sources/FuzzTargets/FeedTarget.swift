import FeedProtocol

/// The first byte seeds the block cuts; the rest is a byte stream cut into lines by a
/// `LineSplitter` (with a small limit, so overlong lines occur). Every line is read both as
/// a client's command (`FeedMessage.apply` to the default view) and as a server line a client
/// reads (`FeedLine(parsing:)`).
///
/// Checks: a command is either refused or gives a usable view (`RadarView.problem` nil); the
/// lines written back (acknowledgement, error, and a parsed hello, frame or view written
/// again) are valid JSON with finite numbers, and a client reads them back: an error's text
/// word for word, an acknowledged view as a usable view.
enum FeedTarget {
    static func run(_ input: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let seed = input.first else { return }
        var splitter = LineSplitter(limit: 2048)
        var lines: [[UInt8]] = []
        var cutter = BlockCutter(seed: seed)
        try cutter.cut(UnsafeRawBufferPointer(rebasing: input.dropFirst())) { block throws(FuzzFailure) in
            for piece in splitter.pieces(from: block) {
                switch piece {
                case .line(let line):
                    try check(line.count <= splitter.limit, "a line of \(line.count) bytes passed the limit")
                    try check(!line.contains(0x0A), "a line with a newline inside")
                    lines.append(line)
                case .overlong: break
                }
            }
        }
        for (index, line) in lines.enumerated() {
            try command(line, "line \(index)")
            try serverLine(line, "line \(index)")
        }
    }

    /// The server's side: a command applied to the default view.
    static func command(_ line: [UInt8], _ what: String) throws(FuzzFailure) {
        switch FeedMessage.apply(commandLine: line, to: RadarView()) {
        case .success(let view):
            try check(view.problem == nil, "\(what): accepted a view with a problem: \(view.problem ?? "")")
            let reply = FeedMessage.viewAcknowledgement(view, declinationDeg: 1.234)
            try JSONCheck.object(reply, "\(what): acknowledgement")
            guard case .viewAcknowledged(let read, _)? = try? FeedLine(parsing: trimmed(reply)) else {
                throw FuzzFailure("\(what): a client cannot read the acknowledgement \(reply)")
            }
            try check(read.problem == nil, "\(what): the acknowledged view reads back unusable: \(reply)")
        case .failure(let error):
            let reply = FeedMessage.error(error.message)
            try JSONCheck.object(reply, "\(what): error reply")
            guard case .error(let message)? = try? FeedLine(parsing: trimmed(reply)) else {
                throw FuzzFailure("\(what): a client cannot read the error reply \(reply)")
            }
            try check(message == error.message, "\(what): the error reads back as \(message), not \(error.message)")
        }
    }

    /// The client's side: a line from the server, written again when it parsed.
    static func serverLine(_ line: [UInt8], _ what: String) throws(FuzzFailure) {
        let parsed: FeedLine
        do {
            parsed = try FeedLine(parsing: line)
        } catch {
            return
        }
        let written: String
        switch parsed {
        case .hello(let hello): written = hello.jsonLine
        case .frame(let frame):
            _ = frame.byDistance
            written = frame.jsonLine
        case .viewAcknowledged(let view, let declination):
            written = FeedMessage.viewAcknowledgement(view, declinationDeg: declination)
        case .error(let message): written = FeedMessage.error(message)
        case .other: return
        }
        try JSONCheck.object(written, "\(what): written again")
        do {
            _ = try FeedLine(parsing: trimmed(written))
        } catch {
            throw FuzzFailure("\(what): a client cannot read the line written again (\(error)): \(written)")
        }
    }

    private static func trimmed(_ line: String) -> String {
        line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
