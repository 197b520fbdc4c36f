import Glibc
import SystemPackage
import TockCore

/// A battery-backed real-time clock as the kernel shows it
/// (Documentation/ABI/testing/sysfs-class-rtc): `/sys/class/rtc/rtcN/name`
/// (the driver, `rtc-ds1307` for a DS3231 or DS1307, `rtc_cmos` on a PC),
/// `since_epoch` (its time, whole seconds UTC) and `hctosys` (whether the
/// kernel set the system clock from it at boot). Reading `since_epoch`
/// reads the chip; a DS3231 or DS1307 whose oscillator stopped (its
/// battery died) has lost its time and the driver refuses it with EINVAL.
public struct RealTimeClock: Sendable, Equatable {
    /// `rtc0`.
    public var device: String
    /// The driver's name.
    public var name: String
    /// The kernel set the system clock from it at boot.
    public var setTheSystemClock: Bool
    /// Its time, whole seconds (nil when it cannot be read).
    public var time: WallTime?
    /// Why it cannot be read, said so a person knows what to do.
    public var problem: String?

    /// The first RTC (`rtc0`: the one the kernel and hwclock use), or nil
    /// when there is none.
    public static func first(in directory: String = "/sys/class/rtc") -> RealTimeClock? {
        let dir = directory + "/rtc0"
        guard let name = read(dir + "/name")?.value else { return nil }
        var rtc = RealTimeClock(device: "rtc0", name: name, setTheSystemClock: read(dir + "/hctosys")?.value == "1")
        switch read(dir + "/since_epoch") {
        case let (value?, _)? where Int64(value).map(TimeBounds.trusts(secondsSince1970:)) == true:
            rtc.time = WallTime(secondsSince1970: Int64(value)!)
        case let (value?, _)? where !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }):
            // rtc_cmos and rtc-efi report what the chip holds, 2262 and later too.
            rtc.problem = "/dev/rtc0 (\(name)) reads \(value.prefix(20)) s since 1970, outside 1970 to 2199-09-22: its time is wrong; once NTP has set the clock run sudo hwclock -w"
        case let (_, error)?:
            rtc.problem = error == EINVAL
                ? "/dev/rtc0 (\(name)) has no valid time: its battery is flat or missing, or it was never set (the driver refuses it: Invalid argument); fit a cell, and once NTP has set the clock run sudo hwclock -w"
                : "/dev/rtc0 (\(name)) cannot be read: \(String(cString: strerror(error)))"
        case nil:
            rtc.problem = "/dev/rtc0 (\(name)) has no since_epoch in \(dir)"
        }
        return rtc
    }

    init(device: String, name: String, setTheSystemClock: Bool) {
        self.device = device
        self.name = name
        self.setTheSystemClock = setTheSystemClock
    }

    /// How far it is from `wall`, whole seconds (positive: the RTC is ahead).
    /// It counts whole seconds, so the difference is good to ±1 s.
    public func drift(from wall: WallTime) -> Int64? {
        time.map { $0.nanoseconds / 1_000_000_000 - wall.nanoseconds / 1_000_000_000 }
    }

    /// A line for the log, `tock hw-test` and the status.
    public func summary(against wall: WallTime, synchronised: Bool) -> String {
        if let problem { return problem }
        let d = drift(from: wall) ?? 0
        let how = d == 0 ? "within 1 s of" : d > 0 ? "\(d) s ahead of" : "\(-d) s behind"
        return "/dev/\(device) (\(name)) reads \(d == 0 ? "the same second as" : how) the system clock"
            + (synchronised ? " (synchronised by NTP)" : " (not synchronised: the drift is against an unverified clock)")
            + (setTheSystemClock ? "; the kernel set the clock from it at boot" : "")
    }

    /// A sysfs attribute's first line, or the errno of reading it (nil:
    /// there is no such file).
    private static func read(_ path: String) -> (value: String?, error: Int32)? {
        let fd: FileDescriptor
        do { fd = try Syscall.open(path, O_RDONLY) } catch {
            return error == .noSuchFileOrDirectory ? nil : (nil, error.rawValue)
        }
        defer { Syscall.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        // Array.withUnsafeMutableBytes rethrows untyped; Result keeps the Errno.
        let result = buffer.withUnsafeMutableBytes { b in Result { () throws(Errno) in try Syscall.read(fd, into: b) ?? 0 } }
        switch result {
        case .success(let n):
            let text = String(decoding: buffer[..<n], as: UTF8.self)
            return (String(text.prefix { $0 != "\n" }), 0)
        case .failure(let error):
            return (nil, error.rawValue)
        }
    }
}
