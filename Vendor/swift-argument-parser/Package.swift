// swift-tools-version:6.0
// swift-argument-parser 1.8.2 (Apple Inc. and the Swift project authors,
// Apache License v2.0 with Runtime Library Exception, LICENSE.txt), its two
// library targets only, with one file changed: README.md says which and why.

import PackageDescription

let package = Package(
  name: "swift-argument-parser",
  products: [
    .library(name: "ArgumentParser", targets: ["ArgumentParser"]),
  ],
  targets: [
    .target(name: "ArgumentParser", dependencies: ["ArgumentParserToolInfo"]),
    .target(name: "ArgumentParserToolInfo"),
  ]
)
