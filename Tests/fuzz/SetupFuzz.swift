// libFuzzer entry for the boot partition's setup files: `make fuzz-setup`
// compiles it with TockSetup's readers (no I/O) under
// -sanitize=fuzzer,address. An input is read as tock-setup.txt and as
// rpi-preseed.toml; whatever passes is written as wpa_supplicant's and
// networkd's files. A trap, a listed mistake past the limit, a report
// that grows without bound or a network block with a quote in it is a crash.

let zones: Set<String> = ["UTC", "Europe/London"]

func check(_ r: SetupReading) {
    guard r.problems.count <= 50, r.problemCount >= r.problems.count, r.report.utf8.count <= 50 * 2048 else {
        fatalError("report: \(r.problems.count) listed of \(r.problemCount), \(r.report.utf8.count) bytes")
    }
    guard r.problems.isEmpty else { return }
    guard let wpa = try? NetworkFiles.wpaSupplicant(r.settings.wifi?.value) else { fatalError("no key made: libcrypto") }
    if let block = wpa.split(separator: "network={").dropFirst().first, block.contains("\"") || block.contains("\\") {
        fatalError("a quote or backslash in the network block: \(wpa)")
    }
    _ = NetworkFiles.staticNetwork(base: "[Match]\nType=ether\n[Network]\nDHCP=yes\n", r.settings)
    _ = r.settings.summary
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSetup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let zone: (String) -> String? = { zones.contains($0) ? nil : "no such zone" }
    check(SetupFile(zone: zone, now: { 0 }).read(bytes))
    check(PreseedFile(zone: zone).read(bytes))
    return 0
}
