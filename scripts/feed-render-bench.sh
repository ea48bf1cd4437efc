#!/usr/bin/env bash
# How long the feed takes to write a busy frame in a release build, at a revision and in the
# working tree: a scene of 300 aircraft rendered for 1, 2 and 20 views (the way the hub does
# it: `RadarScene.frameLines(for:)` where it exists, else `frame(for:).jsonLine` per view),
# and 300 of the MQTT output's aircraft objects. Each side is built as a small package of its
# own in a temporary directory (Support, ModeS, Pipeline, Identity, Tracking, FeedProtocol,
# SkyProjection and a benchmark), about a minute each. Prints the best and median of 200 runs.
# Usage: scripts/feed-render-bench.sh REVISION (e.g. the commit before a change of the feed).
set -euo pipefail
cd "$(dirname "$0")/.."
revision="${1:?usage: $0 REVISION}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
modules=(Support ModeS Pipeline Identity Tracking FeedProtocol SkyProjection)

prepare() { # directory, then how to fill its Sources
    local dir="$1"
    mkdir -p "$dir/Sources/Bench"
    cat >"$dir/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "feedbench",
    targets: [
        .target(name: "Support"),
        .target(name: "ModeS", dependencies: ["Support"]),
        .target(name: "Pipeline", dependencies: ["ModeS"]),
        .target(name: "Identity"),
        .target(name: "Tracking", dependencies: ["ModeS", "Pipeline", "Identity"]),
        .target(name: "FeedProtocol", dependencies: ["ModeS", "Support"]),
        .target(name: "SkyProjection", dependencies: ["ModeS", "Identity", "Tracking", "FeedProtocol"]),
        .executableTarget(name: "Bench", dependencies: ["SkyProjection", "FeedProtocol", "Tracking", "ModeS"]),
    ],
    swiftLanguageModes: [.v6]
)
EOF
    local render='for view in views { bytes += scene.frame(for: view).jsonLine.utf8.count }'
    if grep -q "func frameLines" "$dir/Sources/SkyProjection/RadarScene.swift"; then
        render='for (_, line) in scene.frameLines(for: Set(views)) { bytes += line.utf8.count }'
    fi
    cat >"$dir/Sources/Bench/main.swift" <<EOF
import FeedProtocol
import Foundation
import ModeS
import SkyProjection
import Tracking

let count = 300
let states = (0..<count).map { i in
    let angle = Double(i) / Double(count) * 2 * .pi
    let radius = 0.05 + 0.3 * Double(i % 7) / 7
    var state = AircraftState(icao: 0x400000 + UInt32(i), lastSeen: 100, source: .adsb)
    state.callsign = "TST\(i)"
    state.category = "A3"
    state.squawk = "1000"
    state.position = GeoPoint(latitude: 52 + radius * cos(angle), longitude: 4.4 + radius * sin(angle) * 1.6)
    state.positionTime = 100
    state.altitudeBaroFt = 1000 + 500 * (i % 70)
    state.groundSpeedKt = 420.5
    state.trackDeg = Double(i % 360)
    state.verticalRateFpm = -640
    state.onGround = false
    return state
}
let snapshot = RadarSnapshot(
    observer: Observer(latitude: 52, longitude: 4.4, altitudeMetres: 10), source: "test", now: 101, aircraft: states)
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
func summary(_ times: [Double]) -> String {
    let sorted = times.sorted()
    return String(format: "best %.3f ms, median %.3f ms", sorted[0] * 1000, sorted[sorted.count / 2] * 1000)
}
var bytes = 0
for viewCount in [1, 2, 20] {
    let views = (0..<viewCount).map { RadarView(headingDeg: Double(\$0) * 17, rangeKm: 40 + Double(\$0)) }
    var times: [Double] = []
    for seq in 1...200 {
        let start = ContinuousClock.now
        let scene = RadarScene(seq: UInt64(seq), time: 1_765_000_000.5, snapshot: snapshot)
        $render
        times.append(seconds(ContinuousClock.now - start))
    }
    print("  300 aircraft, \(viewCount) views: \(summary(times))")
}
var times: [Double] = []
for _ in 1...200 {
    let start = ContinuousClock.now
    for state in states { bytes += FeedAircraft(tracked: state, now: 101).trackedJSON.utf8.count }
    times.append(seconds(ContinuousClock.now - start))
}
print("  300 MQTT aircraft objects: \(summary(times)) (\(bytes) bytes in all)")
EOF
}

mkdir -p "$work/old/Sources" "$work/new/Sources"
git archive "$revision" "${modules[@]/#/Sources/}" | tar -x -C "$work/old"
for module in "${modules[@]}"; do cp -r "Sources/$module" "$work/new/Sources/"; done
prepare "$work/old"
prepare "$work/new"
for side in old new; do
    (cd "$work/$side" && swift build -c release >"$work/$side.log" 2>&1) || {
        cat "$work/$side.log" >&2
        exit 1
    }
done
echo "$revision:"
"$work/old/.build/release/Bench"
echo "working tree:"
"$work/new/.build/release/Bench"
