// swift-tools-version:6.0
import PackageDescription

/// With `ADASIS_UNCHECKED_EXCLUSIVITY=1` in the environment, release builds of the modules on the
/// per-fix path (matching, horizon, provider, map reads, wire coding) leave out Swift's run-time
/// exclusivity checks: ≈ 10 % of a fix's instructions (`Tools/bench --instructions`: 641.9 →
/// 578.7 k; README, "Per fix"). The compile-time checks stay, and debug builds (every test) keep
/// the run-time ones. Those only ever see accesses on their own thread, so they never guarded the
/// daemon's threads against each other. The benchmarks and the deployment build (`udev/README.md`)
/// set it; it is not the default because SwiftPM refuses a package with unsafe flags as a
/// version-pinned dependency, and the libraries are there to be embedded.
let hotPath: [SwiftSetting] =
    Context.environment["ADASIS_UNCHECKED_EXCLUSIVITY"] == "1"
    ? [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))] : []

/// The executables allocate through TCMalloc (gperftools' `libtcmalloc_minimal`, Debian
/// `libtcmalloc-minimal4`) instead of glibc's malloc: a fix allocates and frees hundreds of small
/// blocks (paths, links, messages), and TCMalloc's per-thread free lists serve them with fewer
/// instructions and less contention (README, "Per fix": end to end p50 and p99 ≈ 10 % lower; the
/// import no slower). With `ADASIS_SYSTEM_MALLOC=1` in the environment they keep glibc's malloc
/// (a sanitizer build, a target without the library). The libraries never choose an allocator:
/// that is the embedding program's decision.
let allocator: [LinkerSetting] =
    Context.environment["ADASIS_SYSTEM_MALLOC"] == "1"
    ? [] : [.linkedLibrary("tcmalloc_minimal", .when(platforms: [.linux]))]

let package = Package(
    name: "adasis",
    products: [
        .executable(name: "adasis", targets: ["adasis"]),
        .library(name: "ADASISv2", targets: ["ADASISv2"]),
        .library(name: "SocketCAN", targets: ["SocketCAN"]),
        .library(name: "RoadMap", targets: ["RoadMap"]),
        .library(name: "RoadMapStore", targets: ["RoadMapStore"]),
        .library(name: "RoadMapImport", targets: ["RoadMapImport"]),
        .library(name: "GNSS", targets: ["GNSS"]),
        .library(name: "InputPolicy", targets: ["InputPolicy"]),
        .library(name: "GNSSSources", targets: ["GNSSSources"]),
        .library(name: "Horizon", targets: ["Horizon"]),
        .library(name: "ADASISProvider", targets: ["ADASISProvider"]),
        .library(name: "HorizonDaemon", targets: ["HorizonDaemon"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "OpenLR", targets: ["OpenLR"]),
        .library(name: "Traffic", targets: ["Traffic"]),
        .library(name: "MapTiles", targets: ["MapTiles"]),
        .library(name: "HorizonPicture", targets: ["HorizonPicture"]),
        .library(name: "MapView", targets: ["MapView"]),
        .library(name: "ViewServer", targets: ["ViewServer"]),
        .library(name: "TrafficFeedHTTP", targets: ["TrafficFeedHTTP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // adasis view's HTTP server: small, no SwiftNIO (README: about 16 s of CPU on a cold build).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // C shims and system libraries (not API).
        .target(name: "CSocketCAN"),
        .systemLibrary(name: "CLibSocketCAN", pkgConfig: "libsocketcan",
                       providers: [.apt(["libsocketcan-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSystemdBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Libraries: pure logic, I/O only at the edges.
        .target(name: "ADASISv2", swiftSettings: hotPath),
        // System-call fault injection for tests, as swift-system's ENABLE_MOCKING: debug builds only.
        .target(name: "SocketCAN", dependencies: ["CSocketCAN", "CLibSocketCAN"],
                swiftSettings: [.define("SOCKETCAN_FAULT_INJECTION", .when(configuration: .debug))]),
        // The road model (links, geometry, attributes, the RoadNetwork protocol): no I/O.
        .target(name: "RoadMap", swiftSettings: hotPath),
        // The SQLite map store: tiles, the map file writer, the caching reader, atomic file replacement.
        .target(name: "RoadMapStore", dependencies: [
            "RoadMap", "CZlib",
            .product(name: "GRDB", package: "GRDB.swift"),
        ], swiftSettings: hotPath),
        // The importer: OSM PBF, tags, the graph build; writes map files through the store.
        .target(name: "RoadMapImport", dependencies: ["RoadMap", "RoadMapStore", "CZlib"],
                resources: [.copy("Resources/legal_default_speeds.json")]),
        // The bad-input policy every reader shares: skip and count by reason with lines, or --strict.
        .target(name: "InputPolicy"),
        .target(name: "GNSS", dependencies: ["InputPolicy"]),
        .target(name: "Horizon", dependencies: ["RoadMap", "GNSS"], swiftSettings: hotPath),
        .target(name: "DaemonConfiguration", dependencies: ["ADASISv2", "RoadMap", "Routing"]),
        .target(name: "Routing", dependencies: ["RoadMap"]),
        // Mapbox Vector Tiles of the road network (encoder, Web Mercator tiling, clipping, cache).
        .target(name: "MapTiles", dependencies: ["RoadMap"]),
        // Pictures of the horizon at one moment (SVG).
        .target(name: "HorizonPicture", dependencies: ["RoadMap", "Horizon"]),
        // The map view's requests and answers (page, style, tiles, the replay's horizon by time): no I/O.
        .target(name: "MapView", dependencies: [
            "MapTiles", "HorizonPicture", "Traffic", "RoadMap", "ADASISv2", "ADASISProvider",
        ]),
        .target(name: "ADASISProvider", dependencies: ["ADASISv2", "Horizon", "RoadMap", "GNSS"], swiftSettings: hotPath),
        // OpenLR line location references: the binary format, decoding onto any RoadNetwork, encoding.
        .target(name: "OpenLR", dependencies: ["RoadMap"]),
        // The traffic feed (flow and incident records) and the per-link traffic layer.
        .target(name: "Traffic", dependencies: ["RoadMap", "OpenLR", "Routing"]),

        // Adapters beside the models: GNSS sources (gpsd, NMEA devices and files, the clock).
        .target(name: "GNSSSources", dependencies: ["GNSS", .product(name: "Logging", package: "swift-log")]),
        // The head unit's route interface on D-Bus (sd-bus): a typed sd-bus wrapper and its server thread.
        .target(name: "RouteBus", dependencies: [
            "CSystemdBus", "RoadMap", "Routing", .product(name: "Logging", package: "swift-log"),
        ]),
        // adasis view's HTTP server (FlyingFox), its page (MapLibre GL JS vendored) and the map-file tile reader.
        .target(name: "ViewServer", dependencies: [
            "MapView", "MapTiles", "RoadMap", "RoadMapStore", "SocketCAN", .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "FlyingSocks", package: "FlyingFox"),
        ], resources: [.copy("Resources/page")]),

        // Traffic feeds over HTTP (URLSession): polling with traffic-model-id sync, the disk cache of responses.
        .target(name: "TrafficFeedHTTP", dependencies: ["Traffic"]),

        // The daemon: an I/O-free core (DaemonCore) and the run loop that feeds it.
        .target(name: "HorizonDaemon", dependencies: [
            "ADASISv2", "SocketCAN", "RoadMap", "RoadMapStore", "GNSS", "GNSSSources", "Horizon", "DaemonConfiguration",
            "ADASISProvider", "Routing", "RouteBus", "Traffic", "TrafficFeedHTTP",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The one executable: command line and daemon wiring.
        .executableTarget(name: "adasis", dependencies: [
            "ADASISv2", "SocketCAN", "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS", "GNSSSources", "Horizon",
            "DaemonConfiguration", "ADASISProvider", "HorizonDaemon", "Routing", "InputPolicy", "OpenLR", "Traffic",
            "MapTiles", "HorizonPicture", "MapView", "ViewServer", "TrafficFeedHTTP",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: allocator),

        // Benchmarks (release builds; measure, never assert).
        .executableTarget(name: "adasis-bench", dependencies: [
            "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS", "GNSSSources", "Horizon", "ADASISProvider", "ADASISv2",
            "Routing", "MapTiles", "DaemonConfiguration",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: allocator),

        // Shared by the test targets only (seeded generator, fuzz mutation, road-network fixtures,
        // repository root, free port, process runner, scratch directory); never a dependency of
        // product code.
        .target(name: "TestSupport", dependencies: ["RoadMap", "RoadMapImport"], path: "Tests/TestSupport"),

        // One test target per module.
        .testTarget(name: "ADASISv2Tests", dependencies: ["TestSupport", "ADASISv2"]),
        .testTarget(name: "SocketCANTests", dependencies: ["TestSupport", "SocketCAN"]),
        .testTarget(name: "RoadMapTests", dependencies: ["TestSupport", "RoadMap"]),
        .testTarget(name: "RoadMapStoreTests", dependencies: [
            "TestSupport", "RoadMapStore", "RoadMap", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "RoadMapImportTests", dependencies: ["TestSupport", "RoadMapImport", "RoadMapStore", "RoadMap"]),
        .testTarget(name: "InputPolicyTests", dependencies: ["InputPolicy"]),
        .testTarget(name: "GNSSTests", dependencies: ["TestSupport", "GNSS", "InputPolicy"], exclude: ["Fixtures"]),
        .testTarget(name: "GNSSSourcesTests", dependencies: [
            "TestSupport", "GNSSSources", "GNSS", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ADASISProviderTests", dependencies: [
            "TestSupport", "ADASISProvider", "ADASISv2", "Horizon", "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS",
            "Traffic",
        ]),
        .testTarget(name: "DaemonConfigurationTests", dependencies: [
            "TestSupport", "DaemonConfiguration", "ADASISv2", "RoadMap", "Routing",
        ]),
        .testTarget(name: "MapTilesTests", dependencies: [
            "TestSupport", "MapTiles", "RoadMap", "RoadMapStore", "RoadMapImport",
        ], exclude: ["decode_mvt.py"]),
        .testTarget(name: "HorizonPictureTests", dependencies: [
            "TestSupport", "HorizonPicture", "Horizon", "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS",
        ]),
        .testTarget(name: "MapViewTests", dependencies: ["MapView", "MapTiles", "ADASISv2"]),
        .testTarget(name: "ViewServerTests", dependencies: [
            "TestSupport", "ViewServer", "MapView", "MapTiles", "RoadMap", "RoadMapStore", "RoadMapImport",
        ]),
        .testTarget(name: "RoutingTests", dependencies: ["TestSupport", "Routing", "RoadMap"]),
        .testTarget(name: "OpenLRTests", dependencies: [
            "TestSupport", "OpenLR", "RoadMap", "RoadMapStore", "RoadMapImport",
        ]),
        .testTarget(name: "TrafficTests", dependencies: [
            "TestSupport", "Traffic", "OpenLR", "Routing", "RoadMap", "RoadMapStore", "RoadMapImport",
        ]),
        .testTarget(name: "TrafficFeedHTTPTests", dependencies: [
            "TestSupport", "TrafficFeedHTTP", "Traffic", "RoadMap",
        ], exclude: ["feed_server.py", "Responses"]),
        .testTarget(name: "HorizonTests", dependencies: ["TestSupport", "Horizon", "RoadMap", "RoadMapStore", "GNSS"]),
        .testTarget(name: "HorizonDaemonTests", dependencies: [
            "TestSupport", "HorizonDaemon", "SocketCAN", "GNSS", "GNSSSources", "ADASISProvider", "ADASISv2", "DaemonConfiguration",
            "Horizon", "RoadMap", "RoadMapStore", "RoadMapImport", "Routing", "RouteBus", "Traffic", "TrafficFeedHTTP",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "RouteBusTests", dependencies: ["TestSupport", "RouteBus", "RoadMap", "Routing"]),
        .testTarget(name: "adasisTests", dependencies: [
            "TestSupport", "adasis", "ADASISv2", "SocketCAN", "ADASISProvider", "DaemonConfiguration", "RoadMap",
            "RoadMapStore", "RoadMapImport", "Horizon", "Routing", "GNSS",
        ],
                    exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
