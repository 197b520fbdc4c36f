// swift-tools-version:6.0
import PackageDescription

// The TM1637 driver's cost per frame (Benchmarks/tm1637.py): the real driver
// (Sources/TockDrivers, linked here) over the mock two-wire bus, whose waits
// only add up time, so callgrind counts the driver and not a spin.
let package = Package(
    name: "TM1637Frames",
    targets: [
        .target(name: "TockCore"),
        .target(name: "TockHardware", dependencies: ["TockCore"]),
        .target(name: "TockMock", dependencies: ["TockCore", "TockHardware"]),
        .target(name: "TockDrivers", dependencies: ["TockCore", "TockHardware"]),
        .executableTarget(name: "tm1637-frames", dependencies: ["TockCore", "TockHardware", "TockMock", "TockDrivers"]),
    ]
)
