import CGpiod
import Glibc
import TockHardware

/// A GPIO chip as the character device presents it.
public struct GpioChip: Equatable, Sendable, CustomStringConvertible {
    public var path: String       // /dev/gpiochip0
    public var name: String       // gpiochip0
    public var label: String      // pinctrl-rp1, pinctrl-bcm2711, gpio-sim.0-node0
    public var lineNames: [String]

    public var description: String { "\(name) [\(label)] \(lineNames.count) lines" }

    public init(path: String, name: String, label: String, lineNames: [String]) {
        self.path = path
        self.name = name
        self.label = label
        self.lineNames = lineNames
    }

    /// The `gpiochipN` entries of `directory`, in number order.
    static func chipNames(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbered: [(Int, String)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.hasPrefix("gpiochip"), let n = Int(name.dropFirst(8)) { numbered.append((n, name)) }
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Every chip under `/dev` (or another directory, for tests), in
    /// number order. Chips that cannot be opened are reported, not skipped.
    public static func all(in directory: String = "/dev") throws(HardwareError) -> [GpioChip] {
        let names = chipNames(in: directory)
        guard !names.isEmpty else {
            throw HardwareError(.notFound, "no GPIO chips in \(directory): is this a board with a GPIO character device (/dev/gpiochip*)? On a PC, run with --backend mock")
        }
        var chips: [GpioChip] = []
        for n in names { chips.append(try open("\(directory)/\(n)")) }
        return chips
    }

    public static func open(_ path: String) throws(HardwareError) -> GpioChip {
        var name = [CChar](repeating: 0, count: 64), label = [CChar](repeating: 0, count: 64)
        var count: UInt32 = 0
        let rc = tock_chip_info(path, &name, name.count, &label, label.count, &count)
        guard rc == 0 else { throw GpioError.opening(path, errno: -rc) }
        var lines: [String] = []
        for offset in 0..<count {
            var buf = [CChar](repeating: 0, count: 64)
            let r = tock_line_name(path, offset, &buf, buf.count)
            lines.append(r == 0 ? text(buf) : "")
        }
        return GpioChip(path: path, name: text(name), label: text(label), lineNames: lines)
    }
}

/// Where a line is: a chip and an offset, with the name it was asked by.
public struct LineAddress: Equatable, Sendable, CustomStringConvertible {
    public var chip: GpioChip
    public var offset: UInt32
    public var spec: String

    public var description: String { "\(spec) (\(chip.name) line \(offset))" }
}

/// Finds lines by name across every chip (`GPIO17`), or by chip and
/// offset (`gpiochip0:17`, `pinctrl-rp1:17`, `/dev/gpiochip4:17`), so one
/// configuration works on a Pi 4 and a Pi 5.
public struct LineFinder: Sendable {
    public var chips: [GpioChip]

    public init(chips: [GpioChip]) { self.chips = chips }

    /// `key` is the configuration key asking (for the message).
    public func find(_ spec: String, for key: String) throws(HardwareError) -> LineAddress {
        if let colon = spec.lastIndex(of: ":"), let offset = UInt32(spec[spec.index(after: colon)...]) {
            let chipSpec = String(spec[..<colon])
            guard let chip = chips.first(where: { $0.path == chipSpec || $0.name == chipSpec || $0.label == chipSpec }) else {
                throw HardwareError(.notFound, "\(key): no GPIO chip \"\(chipSpec)\" (chips: \(chipList)); check \(key)")
            }
            guard offset < chip.lineNames.count else {
                throw HardwareError(.notFound, "\(key): \(chip.name) has lines 0-\(chip.lineNames.count - 1), not \(offset); check \(key)")
            }
            return LineAddress(chip: chip, offset: offset, spec: spec)
        }
        var found: [LineAddress] = []
        for chip in chips {
            for (i, name) in chip.lineNames.enumerated() where name == spec {
                found.append(LineAddress(chip: chip, offset: UInt32(i), spec: spec))
            }
        }
        switch found.count {
        case 1:
            return found[0]
        case 0:
            throw HardwareError(.notFound, "\(key): GPIO line \"\(spec)\" not found on any chip (chips: \(chipList)); check \(key), or give CHIP:OFFSET such as \(chips.first?.name ?? "gpiochip0"):17")
        default:
            let places = found.map { "\($0.chip.name) line \($0.offset)" }.joined(separator: ", ")
            throw HardwareError(.notFound, "\(key): \"\(spec)\" names a line on \(found.count) chips (\(places)); write it as CHIP:OFFSET, e.g. \(found[0].chip.name):\(found[0].offset)")
        }
    }

    private var chipList: String { chips.map(\.description).joined(separator: ", ") }
}

/// Errors from the character device, turned into what to do.
enum GpioError {
    static func opening(_ path: String, errno code: Int32) -> HardwareError {
        switch code {
        case EACCES, EPERM:
            return HardwareError(.permission, "permission denied on \(path): add this user to the gpio group (sudo usermod -aG gpio $USER, then log in again) or install deploy/99-tock-gpio.rules")
        case ENOENT:
            return HardwareError(.notFound, "\(path) does not exist")
        default:
            return HardwareError(.io, "cannot open \(path): \(String(cString: strerror(code)))")
        }
    }

    static func reading(_ address: LineAddress, errno code: Int32) -> HardwareError {
        let hint = code == ENODEV ? " (the chip went away: unplugged, or its driver unbound)" : ""
        return HardwareError(.io, "reading events of \(address) failed: \(String(cString: strerror(code)))\(hint)")
    }

    static func requesting(_ address: LineAddress, as role: String, errno code: Int32) -> HardwareError {
        switch code {
        case EBUSY:
            var used = false
            var consumer = [CChar](repeating: 0, count: 64)
            _ = tock_line_consumer(address.chip.path, address.offset, &used, &consumer, consumer.count)
            let who = text(consumer)
            return HardwareError(.busy, "line \(address.spec) (\(address.chip.name) line \(address.offset)) is in use by \(who.isEmpty ? "another program" : "\"\(who)\""); stop it, or pick another line for \(role)")
        case EACCES, EPERM:
            return opening(address.chip.path, errno: code)
        case EOPNOTSUPP, EINVAL:
            return HardwareError(.unsupported, "\(address) cannot be set up as \(role) here (\(String(cString: strerror(code)))); the chip or libgpiod \(String(cString: tock_gpiod_version())) may not support the bias or debounce asked for")
        default:
            return HardwareError(.io, "cannot request \(address) as \(role): \(String(cString: strerror(code)))")
        }
    }
}

/// A NUL-terminated C buffer as text.
func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
