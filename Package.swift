// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "aviator-adsb",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "aviator-adsb", targets: ["aviator-adsb"]),
        .library(name: "ModeS", targets: ["ModeS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // librtlsdr, found through pkg-config; `make deps` installs it on Debian.
        .systemLibrary(
            name: "CRtlSdr",
            pkgConfig: "librtlsdr",
            providers: [.apt(["librtlsdr-dev"])]
        ),
        // IQ -> frames -> decoded messages. Pure Swift, no I/O, no dependencies.
        .target(name: "ModeS"),
        // Synthetic skies: message encoder, scenarios and an IQ modulator, for tests and demos.
        .target(name: "Simulator", dependencies: ["ModeS"]),
        // Sources of frames and state vectors, and the aircraft tracker.
        .target(name: "Ingest", dependencies: ["ModeS", "CRtlSdr"]),
        // Sky projection and outputs.
        .target(
            name: "Radar",
            dependencies: [
                "ModeS", "Ingest",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Command-line parsing and wiring only.
        .executableTarget(
            name: "aviator-adsb",
            dependencies: [
                "ModeS", "Ingest", "Radar", "Simulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ModeSTests", dependencies: ["ModeS"]),
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "ModeS"]),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator", "ModeS"]),
        .testTarget(name: "RadarTests", dependencies: ["Radar"]),
        // Runs the built `aviator-adsb` binary as a user would.
        .testTarget(name: "EndToEndTests", dependencies: ["aviator-adsb"]),
    ],
    swiftLanguageModes: [.v6]
)
