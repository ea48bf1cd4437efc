import FeedProtocol
import MQTT
import ModeS
import ReceiverNetwork
import SkyProjection
import Support
import Tracking

/// Home Assistant's MQTT discovery for a receiver: four sensors of one device, announced by
/// retained `homeassistant/sensor/aviator_NAME/OBJECT/config` messages, whose values come from
/// one retained JSON state on `aviator/NAME/sensors`:
///
/// - aircraft in range: aircraft with a current position within the radar's range of the
///   receiver (without a receiver position: every aircraft heard);
/// - the nearest aircraft's callsign (its address when it sent none), distance (km, along the
///   line of sight) and elevation above the horizon (degrees).
///
/// The sensors are available while the receiver's status is `online`.
package struct HomeAssistantSensors: Sendable {
    /// The discovery prefix Home Assistant listens on by default.
    package static let discoveryPrefix = "homeassistant"

    /// One sensor: its object id, name, the state field it shows and how.
    struct Sensor {
        var object: String
        var name: String
        var field: String
        var unit: String?
        var deviceClass: String?
        var icon: String
    }

    static let sensors = [
        Sensor(
            object: "aircraft_in_range", name: "Aircraft in range", field: "aircraft", unit: "aircraft",
            deviceClass: nil, icon: "mdi:airplane"),
        Sensor(
            object: "nearest_callsign", name: "Nearest aircraft", field: "nearest_callsign", unit: nil,
            deviceClass: nil, icon: "mdi:airplane-marker"),
        Sensor(
            object: "nearest_distance", name: "Nearest aircraft distance", field: "nearest_distance_km", unit: "km",
            deviceClass: "distance", icon: "mdi:map-marker-distance"),
        Sensor(
            object: "nearest_elevation", name: "Nearest aircraft elevation", field: "nearest_elevation_deg", unit: "°",
            deviceClass: nil, icon: "mdi:angle-acute")
    ]

    /// The receiver's topics.
    package let topics: ReceiverTopics
    /// The program and version, for the device.
    package let version: String
    /// Where the receiver is, for distances and elevations; nil when unknown.
    package let observer: Observer?
    /// The radar's range in km: "in range" means within it.
    package let rangeKm: Double

    /// The sensors of the receiver with `topics`.
    package init(topics: ReceiverTopics, version: String, observer: Observer?, rangeKm: Double) {
        self.topics = topics
        self.version = version
        self.observer = observer
        self.rangeKm = rangeKm
    }

    /// The device's id in Home Assistant: "aviator_NAME", with '.' as '_'.
    var deviceID: String { "aviator_" + topics.name.map { $0 == "." ? "_" : $0 } }

    /// The retained discovery messages, one per sensor.
    package var discoveryMessages: [MQTTMessage] {
        Self.sensors.map { sensor in
            var device = JSONObjectWriter()
            device.addRaw("identifiers", "[\"\(deviceID)\"]")
            device.add("name", "aviator-adsb \(topics.name)")
            device.add("model", "aviator-adsb")
            device.add("manufacturer", "aviator-adsb")
            device.add("sw_version", version)
            var config = JSONObjectWriter()
            config.add("name", sensor.name)
            config.add("unique_id", "\(deviceID)_\(sensor.object)")
            config.add("object_id", "\(deviceID)_\(sensor.object)")
            config.add("state_topic", topics.sensors)
            // A null renders as "None", which Home Assistant shows as unknown.
            config.add("value_template", "{{ value_json.\(sensor.field) }}")
            config.add("unit_of_measurement", sensor.unit)
            config.add("device_class", sensor.deviceClass)
            if sensor.unit != nil { config.add("state_class", "measurement") }
            config.add("icon", sensor.icon)
            config.add("availability_topic", topics.status)
            config.add("payload_available", "online")
            config.add("payload_not_available", "offline")
            config.addRaw("device", device.result)
            return MQTTMessage(
                topic: "\(Self.discoveryPrefix)/sensor/\(deviceID)/\(sensor.object)/config",
                text: config.result, qos: 1, retain: true)
        }
    }

    /// The sensors' state for the aircraft of a snapshot: one JSON object.
    package func state(of aircraft: [AircraftState], now: Double) -> String {
        var inRange = 0
        var nearest: (state: AircraftState, sky: SkyPlacement, distance: Double)?
        if let observer {
            let projection = SkyProjection(observer: observer)
            for state in aircraft where !state.positionIsStale(at: now) {
                guard let sky = projection.place(state), sky.groundKm <= rangeKm else { continue }
                inRange += 1
                let distance = sky.slantKm ?? sky.groundKm
                if nearest == nil || distance < nearest!.distance { nearest = (state, sky, distance) }
            }
        } else {
            inRange = aircraft.count
        }
        var writer = JSONObjectWriter(nullForMissing: true)
        writer.add("aircraft", inRange)
        writer.add(
            "nearest_callsign",
            nearest.map {
                ($0.state.callsign?.isEmpty == false ? $0.state.callsign : nil) ?? $0.state.icaoHex.uppercased()
            })
        writer.add("nearest_icao", nearest?.state.icaoHex)
        writer.add("nearest_distance_km", nearest?.distance, decimals: 1)
        writer.add("nearest_elevation_deg", nearest?.sky.elevationDeg, decimals: 1)
        return writer.result
    }
}
