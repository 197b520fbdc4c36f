// swift-tools-version:6.0
// The seed tutorial's pizza timer, as people write it today with
// Foundation, for side-by-side measurement with Tock (../../README.md).
import PackageDescription

let package = Package(
    name: "SwiftTimer",
    targets: [
        .executableTarget(name: "swift-timer", path: "Sources/SwiftTimer",
                          swiftSettings: [.swiftLanguageMode(.v5)])
    ]
)
