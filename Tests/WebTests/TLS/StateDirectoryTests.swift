import Support
import Testing

@testable import Web

@Suite struct StateDirectoryTests {
    @Test func systemdComesFirstThenXDGThenHome() {
        let all = [
            "STATE_DIRECTORY": "/var/lib/aviator-adsb:/var/lib/other", "XDG_STATE_HOME": "/x/state", "HOME": "/home/pi"
        ]
        #expect(StateDirectory.resolve(environment: all, passwordHome: nil) == "/var/lib/aviator-adsb")
        #expect(
            StateDirectory.resolve(environment: ["XDG_STATE_HOME": "/x/state/", "HOME": "/home/pi"], passwordHome: nil)
                == "/x/state/aviator-adsb")
        #expect(
            StateDirectory.resolve(environment: ["HOME": "/home/pi"], passwordHome: "/root")
                == "/home/pi/.local/state/aviator-adsb")
    }

    @Test func relativeAndEmptyValuesAreIgnored() {
        let environment = ["STATE_DIRECTORY": "state", "XDG_STATE_HOME": "", "HOME": "home"]
        #expect(
            StateDirectory.resolve(environment: environment, passwordHome: "/srv/adsb")
                == "/srv/adsb/.local/state/aviator-adsb")
        #expect(StateDirectory.resolve(environment: environment, passwordHome: nil) == nil)
        #expect(StateDirectory.resolve(environment: [:], passwordHome: "relative") == nil)
    }
}
