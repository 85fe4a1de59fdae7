// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "adasis",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "adasis", targets: ["adasis"]),
        .library(name: "ADASISv2", targets: ["ADASISv2"]),
        .library(name: "SocketCAN", targets: ["SocketCAN"]),
        .library(name: "RoadMap", targets: ["RoadMap"]),
        .library(name: "RoadMapStore", targets: ["RoadMapStore"]),
        .library(name: "RoadMapImport", targets: ["RoadMapImport"]),
        .library(name: "GNSS", targets: ["GNSS"]),
        .library(name: "Horizon", targets: ["Horizon"]),
        .library(name: "ADASISProvider", targets: ["ADASISProvider"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C shims and system libraries (not API).
        .target(name: "CSocketCAN"),
        .systemLibrary(name: "CLibSocketCAN", pkgConfig: "libsocketcan",
                       providers: [.apt(["libsocketcan-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Libraries: pure logic, I/O only at the edges.
        .target(name: "ADASISv2"),
        .target(name: "SocketCAN", dependencies: ["CSocketCAN", "CLibSocketCAN"]),
        // The road model (links, geometry, attributes, the RoadNetwork protocol): no I/O.
        .target(name: "RoadMap"),
        // The SQLite map store: tiles, the map file writer and the caching reader.
        .target(name: "RoadMapStore", dependencies: [
            "RoadMap", "CZlib",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The importer: OSM PBF, tags, the graph build; writes map files through the store.
        .target(name: "RoadMapImport", dependencies: ["RoadMap", "RoadMapStore", "CZlib"],
                resources: [.copy("Resources/legal_default_speeds.json")]),
        .target(name: "GNSS", dependencies: [.product(name: "Logging", package: "swift-log")]),
        .target(name: "Horizon", dependencies: ["RoadMap", "GNSS"]),
        .target(name: "DaemonConfiguration"),
        .target(name: "ADASISProvider", dependencies: ["ADASISv2", "Horizon", "RoadMap", "GNSS"]),

        // The one executable: command line and daemon wiring.
        .executableTarget(name: "adasis", dependencies: [
            "ADASISv2", "SocketCAN", "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS", "Horizon",
            "DaemonConfiguration", "ADASISProvider",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Benchmarks (release builds; measure, never assert).
        .executableTarget(name: "adasis-bench", dependencies: [
            "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS", "Horizon", "ADASISProvider", "ADASISv2",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // One test target per module.
        .testTarget(name: "ADASISv2Tests", dependencies: ["ADASISv2"]),
        .testTarget(name: "SocketCANTests", dependencies: ["SocketCAN"]),
        .testTarget(name: "RoadMapTests", dependencies: ["RoadMap"]),
        .testTarget(name: "RoadMapStoreTests", dependencies: [
            "RoadMapStore", "RoadMap", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "RoadMapImportTests", dependencies: ["RoadMapImport", "RoadMapStore", "RoadMap"]),
        .testTarget(name: "GNSSTests", dependencies: ["GNSS"], exclude: ["Fixtures"]),
        .testTarget(name: "ADASISProviderTests", dependencies: ["ADASISProvider", "ADASISv2", "Horizon", "RoadMap", "RoadMapStore", "RoadMapImport", "GNSS"]),
        .testTarget(name: "DaemonConfigurationTests", dependencies: ["DaemonConfiguration"]),
        .testTarget(name: "HorizonTests", dependencies: ["Horizon", "RoadMap", "GNSS"]),
        .testTarget(name: "adasisTests", dependencies: ["adasis", "ADASISv2", "SocketCAN", "ADASISProvider", "DaemonConfiguration", "RoadMap", "Horizon"],
                    exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
