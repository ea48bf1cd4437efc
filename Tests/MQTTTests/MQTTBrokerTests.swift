import MQTT
import Testing

@Suite struct MQTTBrokerTests {
    @Test func readsPlainAndTLSURLsWithTheirConventionalPorts() throws {
        #expect(
            try MQTTBroker(url: "mqtt://broker.example")
                == MQTTBroker(host: "broker.example", port: 1883, usesTLS: false))
        #expect(
            try MQTTBroker(url: "mqtts://broker.example/")
                == MQTTBroker(host: "broker.example", port: 8883, usesTLS: true))
        #expect(try MQTTBroker(url: "mqtt://10.0.0.2:1884") == MQTTBroker(host: "10.0.0.2", port: 1884, usesTLS: false))
        #expect(try MQTTBroker(url: "mqtts://[::1]:8884") == MQTTBroker(host: "::1", port: 8884, usesTLS: true))
        #expect(try MQTTBroker(url: "mqtts://[::1]:8884").description == "mqtts://[::1]:8884")
    }

    @Test func refusesCredentialsPathsAndBadPortsWithASentence() {
        let cases = [
            ("mqtt://user:secret@host", "AVIATOR_MQTT_USERNAME"),
            ("http://host", "not an mqtt:// or mqtts:// URL"),
            ("mqtt://host/topic", "no path"),
            ("mqtt://host:0", "not between 1 and 65535"),
            ("mqtt://host:99999", "not between 1 and 65535"),
            ("mqtt://host:x", "bad port"),
            ("mqtt://:1883", "no host"),
            ("mqtt://[::1", "unclosed"),
            ("mqtt://2001:db8::1883", "put an IPv6 address in brackets: mqtt://[2001:db8::1883]")
        ]
        for (url, words) in cases {
            #expect(throws: MQTTError.self, "\(url)") { try MQTTBroker(url: url) }
            do {
                _ = try MQTTBroker(url: url)
            } catch {
                #expect(error.description.contains(words), "\(url): \(error)")
            }
        }
    }

    @Test func credentialsComeFromTheEnvironment() throws {
        #expect(try MQTTCredentials.from(environment: [:]) == nil)
        #expect(
            try MQTTCredentials.from(environment: ["AVIATOR_MQTT_USERNAME": "feeder"])
                == MQTTCredentials(username: "feeder", password: nil))
        #expect(
            try MQTTCredentials.from(environment: ["AVIATOR_MQTT_USERNAME": "feeder", "AVIATOR_MQTT_PASSWORD": "pw"])
                == MQTTCredentials(username: "feeder", password: "pw"))
        #expect(throws: MQTTError.self) { try MQTTCredentials.from(environment: ["AVIATOR_MQTT_PASSWORD": "pw"]) }
    }
}
