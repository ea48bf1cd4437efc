// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "aviator-adsb",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "aviator-adsb", targets: ["aviator-adsb"]),
        .library(name: "ModeS", targets: ["ModeS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.25.0"),
    ],
    targets: [
        // librtlsdr, found through pkg-config; `make deps` installs it on Debian.
        .systemLibrary(
            name: "CRtlSdr",
            pkgConfig: "librtlsdr",
            providers: [.apt(["librtlsdr-dev"])]
        ),
        // IQ -> frames -> decoded messages. Pure Swift, no I/O, no dependencies.
        .target(
            name: "ModeS",
            // The demodulator is a tight loop: optimise it even in debug builds, so tests and
            // debug runs of the daemon keep up with a live 2.4 MS/s stream. Its state lives
            // in classes used from one thread whose accesses never overlap, so the runtime
            // exclusivity checks (about 2% of demodulation time) are left out.
            swiftSettings: [
                .unsafeFlags(["-O"], .when(configuration: .debug)),
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]
        ),
        // Synthetic skies: message encoder, scenarios and an IQ modulator, for tests and demos.
        .target(name: "Simulator", dependencies: ["ModeS"]),
        // Sources of frames and state vectors, and the aircraft tracker.
        .target(
            name: "Ingest",
            dependencies: [
                "ModeS", "CRtlSdr",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Sky projection and outputs.
        .target(
            name: "Radar",
            dependencies: [
                "ModeS", "Ingest",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Command-line parsing and wiring only.
        .executableTarget(
            name: "aviator-adsb",
            dependencies: [
                "ModeS", "Ingest", "Radar", "Simulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "ModeSTests", dependencies: ["ModeS"]),
        .testTarget(
            name: "IngestTests",
            dependencies: [
                "Ingest", "ModeS",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator", "ModeS"]),
        .testTarget(name: "RadarTests", dependencies: ["Radar"]),
        // Runs the built `aviator-adsb` binary as a user would.
        .testTarget(name: "EndToEndTests", dependencies: ["aviator-adsb"]),
    ],
    swiftLanguageModes: [.v6]
)
