// swift-tools-version:6.0
import PackageDescription

// The module graph points inward:
//   tock (executable) -> TockAppliance -> TockLinux (+ CTockLinux), TockGPIOD (+ CGpiod), CMosquitto, TockDrivers,
//   TockMock -> TockHardware -> TockCore
// TockCore is pure Swift: no Foundation, no Glibc, no clock reads, no I/O.
let package = Package(
    name: "Tock",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tock", targets: ["tock"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "TockCore"),
        .target(name: "TockHardware", dependencies: ["TockCore"]),
        .target(name: "TockMock", dependencies: ["TockHardware"]),
        .target(name: "TockDrivers", dependencies: ["TockHardware"]),
        .target(name: "CTockLinux"),
        // libgpiod 1.6 or 2.x, whichever gpiod.h the compiler finds.
        .target(name: "CGpiod", linkerSettings: [.linkedLibrary("gpiod")]),
        .target(name: "TockGPIOD", dependencies: ["TockHardware", "CGpiod"]),
        // libmosquitto (libmosquitto-dev): the MQTT link, run only with `mqtt:` configured.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "TockLinux", dependencies: [
            "TockHardware", "CTockLinux",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "TockAppliance", dependencies: [
            "TockCore", "TockHardware", "TockDrivers", "TockMock", "TockLinux", "TockGPIOD", "CMosquitto",
            .product(name: "Yams", package: "Yams"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "tock", dependencies: [
            "TockAppliance",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "TockCoreTests", dependencies: ["TockCore"]),
        .testTarget(name: "TockMockTests", dependencies: ["TockMock"]),
        .testTarget(name: "TockDriversTests", dependencies: ["TockDrivers", "TockMock"]),
        .testTarget(name: "TockLinuxTests", dependencies: ["TockLinux"]),
        .testTarget(name: "TockGPIODTests", dependencies: ["TockGPIOD"]),
        .testTarget(name: "TockApplianceTests", dependencies: ["TockAppliance", "TockGPIOD"]),
    ]
)
