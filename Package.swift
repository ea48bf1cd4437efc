// swift-tools-version: 6.1
import PackageDescription

// On x86-64 the demodulator is compiled for processors with SSE4.2 and POPCNT (`nehalem`,
// every x86-64 processor made since about 2010): its vector code then multiplies 32-bit lanes
// and widens samples in one instruction each, about 8% less CPU time on a busy sky, with
// the same frames. The binary checks the processor when it starts (ProcessorCheck.swift).
// `AVIATOR_ADSB_GENERIC_CPU=1` in the environment of the build gives a binary for any x86-64.
#if arch(x86_64)
    let demodulatorProcessor: [SwiftSetting] =
        Context.environment["AVIATOR_ADSB_GENERIC_CPU"] == nil
        ? [.unsafeFlags(["-target-cpu", "nehalem"])] : []
#else
    let demodulatorProcessor: [SwiftSetting] = []
#endif

// One module per stage of the data flow; a module imports only the stages before it.
// docs/architecture.md draws the graph and says what each module owns; ArchitectureTests
// checks these dependency lists against it.
let package = Package(
    name: "aviator-adsb",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "aviator-adsb", targets: ["aviator-adsb"]),
        // The Mode S codec on its own: no I/O, no dependencies, no unsafe flags.
        .library(name: "ModeS", targets: ["ModeS"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.25.0"),
        // The web server: HTTP/1.1, TLS and WebSocket on swift-nio. Its default traits pull in
        // swift-configuration and the full Foundation, which the daemon does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The self-signed certificate for phones: an ECDSA P-256 key and an X.509 certificate.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // gzip for the web app's text assets, compressed once at start.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // /metrics in Prometheus's text format. It brings swift-metrics (CoreMetrics, whose
        // handler protocols its metrics implement) and swift-atomics, which Hummingbird and
        // swift-nio already build.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1")
    ],
    targets: [
        // librtlsdr, found through pkg-config; `make deps` installs it on Debian.
        .systemLibrary(name: "CRtlSdr", pkgConfig: "librtlsdr", providers: [.apt(["librtlsdr-dev"])]),
        // libmosquitto, the MQTT client library, found through pkg-config; `make deps` installs it.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // An MQTT client on libmosquitto: connection, reconnection, a bounded queue. Knows
        // nothing of aircraft.
        .target(name: "MQTT", dependencies: ["CMosquitto"]),
        // SQLite, Debian's libsqlite3, found through pkg-config; `make deps` installs it.
        // docs/history.md says why this binding and not GRDB.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Small shared utilities with no stage logic and no dependencies: fixed-point text, the
        // JSON writer, whitespace trimming, log throttling, retry backoff, Duration in seconds.
        .target(name: "Support"),
        // What the servers share: keeping a listening socket from taking the last descriptors.
        .target(name: "NetworkSupport", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),

        // Samples: format, rate, a block with its arrival, the 12 MHz sample clock, the ring
        // between the dongle's thread and the demodulator's, the file reader.
        .target(name: "IQ"),

        // Frames and messages: CRC and repairs, decoding, CPR, the AVR and Beast wire formats.
        .target(name: "ModeS", dependencies: ["Support"]),
        // IQ samples -> frames.
        .target(
            name: "ModeSDemod",
            dependencies: ["ModeS", "IQ"],
            // A tight loop over samples: optimised even in debug builds, so tests and debug
            // runs keep up with a live 2.4 MS/s stream. Its state lives in classes used from
            // one thread whose accesses never overlap, so the runtime exclusivity checks
            // (about 2% of its time) are left out.
            swiftSettings: [
                .unsafeFlags(["-O"], .when(configuration: .debug)),
                .unsafeFlags(["-enforce-exclusivity=unchecked"])
            ] + demodulatorProcessor
        ),
        // Synthetic skies: the one signal source of tests, demos and benchmarks.
        .target(name: "Simulator", dependencies: ["ModeS", "IQ", "Support"]),
        // Every source's frames, once: duplicate removal across sources, decoding, counts, the
        // frame taps of the outputs.
        .target(name: "Pipeline", dependencies: ["ModeS"]),
        // What an aircraft is: the offline identity store (types, airlines, airports, routes,
        // address blocks), the aircraft database, route plausibility; plain values and lookups.
        .target(name: "Identity", dependencies: ["ModeS"]),
        // Decoded frames and state reports -> one state per aircraft.
        .target(name: "Tracking", dependencies: ["ModeS", "Pipeline", "Identity"]),
        // The network of receivers' wire types: topics, frame batches, receiver announcements,
        // written by the MQTT output and read by the MQTT input.
        .target(name: "ReceiverNetwork", dependencies: ["ModeS", "Support"]),
        // Where frames come from: RTL-SDR, replay, Beast input, OpenSky; the supervisor; the
        // identity files, and fetching fresh ones (`db update`).
        .target(
            name: "Receivers",
            dependencies: [
                "ModeS", "IQ", "ModeSDemod", "Pipeline", "Identity", "Support", "NetworkSupport", "CRtlSdr", "MQTT",
                "ReceiverNetwork",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The certificates `db update --ca-file` trusts; the HTTP client brings it anyway.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CompressNIO", package: "compress-nio")
            ]
        ),
        // The feed's wire types (hello, frame, aircraft, view, error), written and read by
        // the server and every client.
        .target(name: "FeedProtocol", dependencies: ["ModeS", "Support"]),
        // Aircraft -> an observer's sky and a client's radar view.
        .target(name: "SkyProjection", dependencies: ["ModeS", "Identity", "Tracking", "FeedProtocol"]),
        // The radar feed on a Unix socket: one hub, a bounded outbox per client.
        .target(
            name: "FeedServer",
            dependencies: [
                "FeedProtocol", "SkyProjection", "Pipeline", "Tracking", "Support", "NetworkSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        // The web server: the radar app, the feed over WebSocket, /data/*.json, over HTTP(S).
        .target(
            name: "Web",
            dependencies: [
                "ModeS", "Support", "FeedProtocol", "SkyProjection", "FeedServer", "Pipeline", "Tracking", "Outputs",
                "History",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Prometheus", package: "swift-prometheus")
            ],
            resources: [.embedInCode("App")]
        ),
        // The day's sky, kept: thinned tracks, per-minute statistics, the coverage outline and
        // the diary in an SQLite file, written in batches off the sample path.
        .target(
            name: "History",
            dependencies: [
                "ModeS", "Support", "Pipeline", "Identity", "Tracking", "CSQLite",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The ecosystem's outputs: Beast, SBS and AVR over TCP, aircraft.json, MQTT.
        .target(
            name: "Outputs",
            dependencies: [
                "ModeS", "Support", "NetworkSupport", "Pipeline", "Identity", "Tracking", "MQTT", "ReceiverNetwork",
                "FeedProtocol", "SkyProjection",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]
        ),
        // The terminal radar: a client of the feed, nothing more.
        .target(name: "RadarTerminal", dependencies: ["FeedProtocol", "ModeS", "Support"]),
        // The composition root as a library: a DaemonConfiguration made into the running
        // daemon (pipeline, tracker, sources, feed, outputs, web, MQTT) and its service group;
        // the statistics line, aircraft expiry, signal handling.
        .target(
            name: "Daemon",
            dependencies: [
                "ModeS", "Support", "IQ", "ModeSDemod", "Pipeline", "Identity", "Tracking", "Receivers", "MQTT",
                "FeedProtocol",
                "FeedServer", "Outputs", "Web", "ReceiverNetwork", "History",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle")
            ]
        ),
        // Commands and option groups only.
        .executableTarget(
            name: "aviator-adsb",
            dependencies: [
                "ModeS", "Support", "IQ", "ModeSDemod", "Pipeline", "Identity", "Tracking", "Receivers", "FeedProtocol",
                "FeedServer", "Outputs", "Web", "RadarTerminal", "Simulator", "MQTT", "ReceiverNetwork", "Daemon",
                "History",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle")
            ]
        ),

        // Fuzzing: the body of each fuzz target as a plain function, which the libFuzzer
        // executables below and FuzzTargetsTests (replaying Fuzz/Corpus) share. Built with
        // `--sanitize=fuzzer` only by `make fuzz`; in a normal build the executables do nothing.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "ModeS", "Support", "IQ", "ModeSDemod", "Pipeline", "Identity", "Tracking", "Receivers", "FeedProtocol",
                "ReceiverNetwork", "History"
            ]),
        .executableTarget(
            name: "fuzz-message-line", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-message-line"),
        .executableTarget(name: "fuzz-beast", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-beast"),
        .executableTarget(name: "fuzz-feed", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-feed"),
        .executableTarget(name: "fuzz-opensky", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-opensky"),
        .executableTarget(name: "fuzz-demod", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-demod"),
        .executableTarget(name: "fuzz-routes", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-routes"),
        .executableTarget(name: "fuzz-mqtt", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-mqtt"),
        .executableTarget(
            name: "fuzz-aircraft-db", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-aircraft-db"),
        .executableTarget(
            name: "fuzz-identity-store", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-identity-store"),
        .executableTarget(
            name: "fuzz-history-query", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-history-query"),
        .executableTarget(name: "fuzz-tar", dependencies: ["FuzzTargets"], path: "Fuzz/Targets/fuzz-tar"),

        // Helpers several test targets share: ../shared data, test signals.
        // Each test target lists every module of ours it imports, even one it could reach
        // through another: without the edge an incremental build can keep a test compiled
        // against an older layout of that module's types.
        .target(
            name: "TestSupport",
            dependencies: [
                "ModeS", "ModeSDemod", "IQ", "Simulator", "Tracking", "Pipeline", "Identity", "Support",
                "SkyProjection",
                "FeedProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "ModeSTests", dependencies: ["ModeS", "Support", "Tracking", "Pipeline", "Identity", "TestSupport"]),
        .testTarget(name: "ModeSDemodTests", dependencies: ["ModeSDemod", "IQ", "ModeS", "Simulator", "TestSupport"]),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator", "IQ", "ModeS", "TestSupport"]),
        .testTarget(
            name: "TrackingTests", dependencies: ["Tracking", "Pipeline", "Identity", "Support", "ModeS", "TestSupport"]
        ),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline", "Tracking", "ModeS", "TestSupport"]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "Daemon", "FeedServer", "Pipeline", "Receivers", "Tracking", "ModeS", "TestSupport",
                .product(name: "Logging", package: "swift-log")
            ]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "TestSupport"]),
        .testTarget(
            name: "HistoryTests",
            dependencies: [
                "History", "Tracking", "Pipeline", "Identity", "Support", "ModeS", "CSQLite", "TestSupport",
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        .testTarget(name: "IdentityTests", dependencies: ["Identity", "Receivers", "TestSupport"]),
        .testTarget(name: "ReceiverNetworkTests", dependencies: ["ReceiverNetwork", "ModeS", "TestSupport"]),
        .testTarget(
            name: "ReceiversTests",
            dependencies: [
                "Receivers", "Tracking", "Pipeline", "Identity", "Support", "ModeS", "ModeSDemod", "IQ", "Simulator",
                "TestSupport", "ReceiverNetwork", "MQTT",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ]
        ),
        .testTarget(
            name: "FeedProtocolTests",
            dependencies: [
                "FeedProtocol", "SkyProjection", "RadarTerminal", "ModeS", "Tracking", "Pipeline", "Identity",
                "Support", "TestSupport"
            ]),
        .testTarget(
            name: "SkyProjectionTests",
            dependencies: [
                "SkyProjection", "Tracking", "Pipeline", "Identity", "Support", "FeedProtocol", "FeedServer", "ModeS",
                "TestSupport"
            ]),
        .testTarget(
            name: "FeedServerTests",
            dependencies: [
                "FeedServer", "FeedProtocol", "SkyProjection", "Tracking", "Pipeline", "Identity", "Support", "ModeS",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio")
            ]
        ),
        .testTarget(
            name: "WebTests",
            dependencies: [
                "Web", "FeedServer", "FeedProtocol", "SkyProjection", "Tracking", "Pipeline", "Identity", "Support",
                "Outputs", "ModeS", "TestSupport", "History",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio")
            ]
        ),
        .testTarget(
            name: "OutputsTests",
            dependencies: [
                "Outputs", "Tracking", "Pipeline", "Identity", "Support", "ModeS", "TestSupport", "MQTT",
                "ReceiverNetwork",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio")
            ]),
        .testTarget(
            name: "RadarTerminalTests",
            dependencies: [
                "RadarTerminal", "FeedProtocol", "FeedServer", "SkyProjection", "Tracking", "Pipeline", "Identity",
                "Support", "ModeS", "TestSupport"
            ]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets", "ModeS", "TestSupport"]),
        // Runs the built `aviator-adsb` binary as a user would, and checks the package's shape.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "aviator-adsb", "ModeS", "FeedProtocol", "TestSupport", "MQTT", "ReceiverNetwork", "History",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio")
            ])
    ],
    swiftLanguageModes: [.v6]
)

// A dependency that imports the full Foundation (swift-crypto does) would otherwise lend its
// String methods to every module that reaches it, and one `contains` resolved there links
// ICU and CoreFoundation into the binary (docs/install.md, the binary's size). With member
// import visibility, a file sees only the members of the modules it imports itself.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}

// Code that runs once (commands and their options), at a reader's pace (the terminal radar),
// offline (the simulator) or as glue around the web stack is optimised for size in release
// builds, which keeps the self-contained binary within its budget (docs/install.md, the
// binary's size). The stages every sample, frame and aircraft passes through keep `-O`.
for target in package.targets where ["aviator-adsb", "Web", "RadarTerminal", "Simulator"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Osize"], .when(configuration: .release))]
}
