// swift-tools-version:6.0
import PackageDescription

// The module graph points inward:
//   tock (executable) -> TockAppliance -> TockMQTT, TockSimulator, CMosquitto, TockDrivers, TockMock
//   TockMQTT -> TockControl
//   TockControl, TockSimulator -> TockConfig -> TockLinux (+ CTockLinux), TockGPIOD (+ CGpiod), Yams
//   TockLinux, TockGPIOD, TockDrivers, TockMock -> TockHardware -> TockCore
// TockCore is pure Swift: no Foundation, no Glibc, no clock reads, no I/O.
// Every target declares each module it imports (nothing is re-exported);
// `make test` builds with --explicit-target-dependency-import-check error.
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
        .target(name: "TockMock", dependencies: ["TockCore", "TockHardware"]),
        .target(name: "TockDrivers", dependencies: ["TockCore", "TockHardware"]),
        // The loop protocol, its timers and the virtual loop (simulator, tests).
        .target(name: "TockLoop", dependencies: ["TockCore"]),
        .target(name: "CTockLinux"),
        // libgpiod 1.6 or 2.x, whichever gpiod.h the compiler finds.
        .target(name: "CGpiod", linkerSettings: [.linkedLibrary("gpiod")]),
        .target(name: "TockGPIOD", dependencies: ["TockCore", "TockHardware", "CGpiod"]),
        // libmosquitto (libmosquitto-dev): the MQTT link, run only with `mqtt:` configured.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "TockLinux", dependencies: [
            "TockCore", "TockHardware", "TockLoop", "CTockLinux",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The configuration file and the texts it shares with the command line
        // and the control socket: durations, dates, zones, alarms.
        .target(name: "TockConfig", dependencies: [
            "TockCore", "TockHardware", "TockGPIOD", "TockLinux",
            .product(name: "Yams", package: "Yams"),
        ]),
        // The control protocol: requests as they arrive on the socket, the
        // JSON read and written there, and who holds the connections.
        .target(name: "TockControl", dependencies: ["TockConfig", "TockCore"]),
        // What the simulators are made of: the script they replay, the agenda
        // they take its events from, and the display drawn for a terminal
        // and as SVG.
        .target(name: "TockSimulator", dependencies: ["TockConfig", "TockCore"]),
        // What the MQTT link says, apart from the link itself: the fleet
        // group's ordering rules and Home Assistant's discovery configs.
        // (The libmosquitto client is still in TockAppliance.)
        .target(name: "TockMQTT", dependencies: ["TockConfig", "TockControl", "TockCore"]),
        .target(name: "TockAppliance", dependencies: [
            "TockCore", "TockHardware", "TockDrivers", "TockMock", "TockLinux", "TockGPIOD", "CMosquitto", "TockConfig", "TockControl", "TockMQTT", "TockSimulator", "TockLoop",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "tock", dependencies: [
            "TockAppliance", "TockConfig", "TockControl", "TockSimulator", "TockCore", "TockLinux", "TockGPIOD",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "TockCoreTests", dependencies: ["TockCore"]),
        .testTarget(name: "TockMockTests", dependencies: ["TockCore", "TockHardware", "TockMock"]),
        .testTarget(name: "TockDriversTests", dependencies: ["TockCore", "TockHardware", "TockDrivers", "TockMock"]),
        .testTarget(name: "TockLoopTests", dependencies: ["TockCore", "TockLoop"]),
        .testTarget(name: "TockLinuxTests", dependencies: ["TockCore", "TockHardware", "TockLoop", "TockLinux", "CTockLinux"]),
        .testTarget(name: "TockGPIODTests", dependencies: ["TockHardware", "TockGPIOD"]),
        .testTarget(name: "TockConfigTests", dependencies: ["TockConfig", "TockCore", "TockLinux", "TockGPIOD"]),
        .testTarget(name: "TockControlTests", dependencies: ["TockControl", "TockCore"]),
        .testTarget(name: "TockSimulatorTests", dependencies: ["TockSimulator", "TockCore"]),
        .testTarget(name: "TockMQTTTests", dependencies: ["TockMQTT", "TockCore"]),
        .testTarget(name: "TockApplianceTests", dependencies: ["TockAppliance", "TockConfig", "TockControl", "TockMQTT", "TockSimulator", "TockCore", "TockHardware", "TockLinux", "TockGPIOD", "TockLoop"]),
    ]
)
