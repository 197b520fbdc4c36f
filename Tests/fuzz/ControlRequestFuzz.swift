// libFuzzer entry for the control socket's request parser: `make fuzz`
// compiles it with ControlRequest.swift, DurationText.swift and
// Instant.swift under -sanitize=fuzzer,address and runs it for a bounded
// time. Any trap (overflow, out-of-range index) is a crash it reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = Array(UnsafeBufferPointer(start: data, count: size))
    if let request = try? ControlRequest.parse(line) {
        // What parses must print back to a line that parses the same.
        guard (try? ControlRequest.parse(Array(request.line.utf8))) == request else { fatalError("round trip: \(request)") }
    }
    return 0
}
