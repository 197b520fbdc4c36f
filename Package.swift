// swift-tools-version:6.0
import PackageDescription

// The module graph points inward (docs/architecture.md draws it; a test
// keeps the two equal):
//   tock -> TockService, TockSimulator -> TockHost; tock -> TockSetup -> TockConfig
//   tock-web -> TockWeb -> TockControl (a client of the socket, another process)
//   TockHost -> TockMQTT, TockDevices -> TockShell, TockControl
//   TockShell, TockControl -> TockConfig, TockLinux, TockLoop -> TockHardware, TockCore
//   (and TockJSON, the one JSON value, for every edge that writes or reads JSON)
// (tock-web links neither libgpiod nor libmosquitto.)
// TockCore is pure Swift: no Foundation, no Glibc, no clock reads, no I/O.
// Every target declares each module it imports (nothing is re-exported);
// `make test` builds with --explicit-target-dependency-import-check error.
let package = Package(
    name: "Tock",
    platforms: [.macOS(.v13)],
    products: [
        // The appliance and its command line, and the page on the LAN
        // (`tock-web`, a link to it: its own process and unit, a client of
        // the control socket).
        .executable(name: "tock", targets: ["tock"]),
    ],
    dependencies: [
        // swift-argument-parser 1.8.2 without Foundation (Vendor/swift-argument-parser/README.md).
        .package(path: "Vendor/swift-argument-parser"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .target(name: "TockCore"),
        // The one JSON value, its writer and its reader: what every edge
        // writes and reads (no Foundation, depends on nothing).
        .target(name: "TockJSON"),
        .target(name: "TockHardware", dependencies: ["TockCore"]),
        .target(name: "TockMock", dependencies: ["TockCore", "TockHardware"]),
        .target(name: "TockDrivers", dependencies: ["TockCore", "TockHardware"]),
        // The loop protocol, its timers and the virtual loop (simulator, tests).
        // The lines of the log that outside input can cause are limited on
        // the loop's time (`LimitedLog`).
        .target(name: "TockLoop", dependencies: ["TockCore", .product(name: "Logging", package: "swift-log")]),
        .target(name: "CTockLinux"),
        // libgpiod 1.6 or 2.x, whichever gpiod.h the compiler finds.
        .target(name: "CGpiod", linkerSettings: [.linkedLibrary("gpiod")]),
        .target(name: "TockGPIOD", dependencies: ["TockCore", "TockHardware", "CGpiod"]),
        // libmosquitto (libmosquitto-dev's headers): the MQTT link, opened
        // with dlopen only when `mqtt:` is configured.
        .target(name: "CMosquitto"),
        .target(name: "TockLinux", dependencies: [
            "TockCore", "TockHardware", "TockLoop", "CTockLinux", "CZlib",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // libyaml (Debian's libyaml-0-2): the configuration file's events.
        .target(name: "CLibyaml", linkerSettings: [.linkedLibrary("yaml")]),
        // The configuration file and the texts it shares with the command line
        // and the control socket: durations, dates, zones, alarms.
        .target(name: "TockConfig", dependencies: [
            "TockCore", "TockHardware", "TockLinux", "CLibyaml",
        ]),
        // The boot partition's setup (tock-setup.txt, Raspberry Pi Imager's
        // rpi-preseed.toml) read as typed values and applied: `tock setup`.
        // libcrypto's PBKDF2 for a Wi-Fi passphrase, opened with dlopen by
        // `tock setup` alone.
        .target(name: "CLibcrypto"),
        .target(name: "TockSetup", dependencies: ["TockCore", "TockConfig", "TockLinux", "CLibcrypto"]),
        // The imperative shell around the core: feeds it inputs, carries its
        // commands out to the display, buzzer, LEDs and trace, remembers its
        // state in the state file.
        .target(name: "TockShell", dependencies: [
            "TockJSON", "TockCore", "TockHardware", "TockLoop", "TockLinux", "TockConfig",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The parts opened from the configuration: libgpiod lines and the
        // display and buzzer drivers on a board, mock lines on a PC.
        .target(name: "TockDevices", dependencies: [
            "TockCore", "TockHardware", "TockMock", "TockDrivers", "TockGPIOD", "TockLinux", "TockLoop", "TockConfig",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The control protocol, the local socket that serves it and its
        // client side; what carries requests out is TockHost's ControlService.
        .target(name: "TockControl", dependencies: [
            "TockJSON", "TockConfig", "TockCore", "TockLoop", "TockLinux",
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // MQTT: the bridge, the fleet group and Home Assistant discovery,
        // over a small transport whose real one is libmosquitto.
        .target(name: "TockMQTT", dependencies: [
            "TockJSON", "TockConfig", "TockControl", "TockCore", "TockShell", "TockLoop", "TockLinux", "TockHardware", "CMosquitto",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The appliance wired once, on whichever loop it is given.
        .target(name: "TockHost", dependencies: [
            "TockCore", "TockHardware", "TockLoop", "TockLinux", "TockConfig", "TockShell", "TockDevices", "TockControl", "TockMQTT",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The desk simulator: a script replayed on virtual time, or keys in a
        // terminal on the real loop; the display drawn as text and SVG.
        .target(name: "TockSimulator", dependencies: [
            "TockConfig", "TockControl", "TockCore", "TockHardware", "TockLoop", "TockLinux", "TockMock", "TockShell", "TockDevices", "TockHost",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `tock run`: the box on the reactor as systemd runs it.
        .target(name: "TockService", dependencies: [
            "TockCore", "TockHardware", "TockLoop", "TockLinux", "TockConfig", "TockShell", "TockDevices", "TockControl", "TockHost",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // One program: `tock`, and `tock-web` when run by that name (a link).
        .executableTarget(name: "tock", dependencies: [
            "TockJSON", "TockService", "TockSimulator", "TockHost", "TockConfig", "TockControl", "TockDevices", "TockCore", "TockLinux", "TockGPIOD", "TockShell", "TockSetup", "TockMock",
            "TockWeb",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "SystemPackage", package: "swift-system"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The web page and its API: pairing, tokens, the HTTP routes, as
        // rules apart from the sockets (tested on injected time).
        // zlib (Debian's zlib1g, on every system) gzips the page once at start-up.
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "TockWeb", dependencies: [
            "TockJSON", "TockControl", "TockConfig", "TockCore", "TockLinux", "TockSetup", "CZlib",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // `tock-web`: the page's server, run as its own unprivileged unit.
        // What several test targets share: a log handler that keeps the lines,
        // a configuration text's problems.
        .target(name: "TockTestSupport", dependencies: ["TockConfig", .product(name: "Logging", package: "swift-log")], path: "Tests/Support"),
        .testTarget(name: "TockCoreTests", dependencies: ["TockCore"]),
        .testTarget(name: "TockCommandTests", dependencies: ["tock", "TockLinux", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "TockHardwareTests", dependencies: ["TockCore", "TockHardware"]),
        .testTarget(name: "TockJSONTests", dependencies: ["TockJSON"]),
        .testTarget(name: "TockMockTests", dependencies: ["TockCore", "TockHardware", "TockMock"]),
        .testTarget(name: "TockDriversTests", dependencies: ["TockCore", "TockHardware", "TockDrivers", "TockMock"]),
        .testTarget(name: "TockLoopTests", dependencies: ["TockCore", "TockLoop", "TockTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "TockLinuxTests", dependencies: ["TockCore", "TockHardware", "TockLoop", "TockLinux", "CTockLinux"]),
        .testTarget(name: "TockGPIODTests", dependencies: ["TockHardware", "TockGPIOD"]),
        .testTarget(name: "TockConfigTests", dependencies: ["TockConfig", "TockCore", "TockLinux", "TockTestSupport"]),
        .testTarget(name: "TockShellTests", dependencies: [
            "TockJSON", "TockShell", "TockConfig", "TockControl", "TockCore", "TockLinux", "TockTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ], exclude: ["StateFilesV2", "StateFilesV3", "make-state-files.sh"]),
        .testTarget(name: "TockDevicesTests", dependencies: [
            "TockDevices", "TockConfig", "TockGPIOD", "TockCore", "TockHardware", "TockLinux", "TockMock", "TockTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "TockControlTests", dependencies: ["TockJSON", "TockControl", "TockCore"]),
        .testTarget(name: "TockMQTTTests", dependencies: ["TockJSON", "TockMQTT", "TockConfig", "TockControl", "TockCore", "CMosquitto", "TockTestSupport"]),
        .testTarget(name: "TockHostTests", dependencies: [
            "TockJSON", "TockHost", "TockMQTT", "TockDevices", "TockShell", "TockConfig", "TockCore", "TockLinux", "TockLoop", "CMosquitto", "TockControl", "TockHardware", "TockMock", "TockTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "TockSimulatorTests", dependencies: ["TockSimulator", "TockControl", "TockConfig", "TockCore", "TockLinux", "TockMock"]),
        .testTarget(name: "TockWebTests", dependencies: ["TockJSON", "TockWeb", "TockControl", "TockCore", "TockLinux", "TockSetup"]),
        .testTarget(name: "TockSetupTests", dependencies: ["TockSetup", "TockCore"]),
        .testTarget(name: "TockServiceTests", dependencies: ["TockService", "TockConfig", "TockControl", "TockCore", "TockLinux"]),
    ]
)

// Release builds leave out the run-time exclusivity checks (every access
// to a class's property or a global checked at run time, about 450
// instructions a wake-up of a count, `make bench-tick`); debug builds, in
// which every test runs, keep them, and the compile-time checks stay in
// both. The loop runs on one thread and no handler re-enters another's
// state (Shell, Reactor).
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
