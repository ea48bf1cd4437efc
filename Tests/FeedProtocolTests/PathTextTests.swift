import FeedProtocol
import Testing

/// Paths taken apart and put together as the C library reads them, relative ones kept relative.
@Suite struct PathTextTests {
    @Test(arguments: [
        ("/run/user/1000/aviator-adsb.sock", "/run/user/1000", "aviator-adsb.sock"),
        ("/aircraft.json", "/", "aircraft.json"),
        ("aircraft.json", "", "aircraft.json"),
        ("json/aircraft.json", "json", "aircraft.json"),
        ("/var/run//aviator/", "/var/run", "aviator"),
        ("/a//b", "/a", "b"),
        ("/", "/", "/"),
        ("", "", "")
    ])
    func directoryAndLastComponent(path: String, directory: String, last: String) {
        #expect(PathText.directory(of: path) == directory, "directory of \(path)")
        #expect(PathText.lastComponent(of: path) == last, "last component of \(path)")
    }

    @Test func appendingPutsOneSlashBetween() {
        #expect(PathText.appending("radar.sock", to: "/tmp/aviator-adsb-1000") == "/tmp/aviator-adsb-1000/radar.sock")
        #expect(PathText.appending("radar.sock", to: "/tmp/") == "/tmp/radar.sock")
        #expect(PathText.appending("radar.sock", to: "/tmp//") == "/tmp/radar.sock")
        #expect(PathText.appending("x.sock", to: "/") == "/x.sock")
        #expect(PathText.appending("x.sock", to: "relative") == "relative/x.sock")
        #expect(PathText.appending("x.sock", to: "") == "x.sock")
    }
}
