//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2025 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// Changed for Tock (README.md): no Foundation. An error's description is
// its `CustomStringConvertible` text (no `LocalizedError`), and there is
// no JSON encoder, so `--experimental-dump-help` prints an error object.

extension Error {
  func describe() -> String {
    String(describing: self)
  }
}

enum JSONEncoder {
  static func encode<T: Encodable>(_ value: T) -> String {
    #"{"error":"--experimental-dump-help is not built into this program (it needs Foundation's JSON encoder)"}"#
  }
}
