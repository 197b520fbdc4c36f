import Glibc
import SystemPackage
import TockCore
import TockHardware

/// A hardware PWM channel through the kernel's sysfs interface
/// (Documentation/driver-api/pwm.rst, "Using PWMs with the sysfs
/// interface"): `pwmchipN/export` makes `pwmchipN/pwmM/`, whose `period`
/// and `duty_cycle` are in nanoseconds and whose `enable` is 1 or 0.
///
/// The kernel refuses (EINVAL) any write that would leave the duty cycle
/// longer than the period, so the order of the two writes follows the
/// direction of the change. The files are write-only as far as this class
/// is concerned: it keeps a shadow and writes only what changes.
public final class SysfsPWM: PWMChannel {
    public let chipPath: String
    public let channelPath: String
    public let channel: Int

    /// One attribute file of the channel.
    enum Attribute: String, Sendable {
        case period
        case dutyCycle = "duty_cycle"
        case enable
    }

    struct Write: Equatable, Sendable {
        var attribute: Attribute
        var value: Int64
    }

    /// What the channel's files hold; nil = unknown (at start, and after a
    /// failed write).
    struct Setting: Equatable, Sendable {
        var period: Int64?
        var duty: Int64?
        var enabled: Bool?
    }

    private var current = Setting()

    /// Opens channel `channel` of `pwmchip<chip>` under `root`, exporting
    /// it if it is not exported yet. The Raspberry Pi's `dtoverlay=pwm`
    /// puts PWM0 channel 0 on GPIO18.
    public init(chip: Int = 0, channel: Int = 0, root: String = "/sys/class/pwm") throws(HardwareError) {
        self.channel = channel
        chipPath = "\(root)/pwmchip\(chip)"
        channelPath = "\(chipPath)/pwm\(channel)"
        guard try exists(chipPath) else {
            throw HardwareError(.notFound, "\(chipPath) does not exist: no PWM controller is enabled; on a Raspberry Pi add dtoverlay=pwm (GPIO18) or dtoverlay=pwm-2chan to /boot/firmware/config.txt and reboot (ls \(root) lists the chips there are)")
        }
        guard try !exists(channelPath) else { return }
        let export = "\(chipPath)/export"
        do {
            try Self.writeFile(export, "\(channel)")
        } catch where error == .resourceBusy {
            throw HardwareError(.busy, "channel \(channel) of \(chipPath) is in use by a kernel driver (a pwm-fan, pwm-beeper or backlight node in the device tree?); writing \(channel) to \(export) was refused")
        } catch where error == .invalidArgument {
            throw HardwareError(.notFound, "\(chipPath) has no channel \(channel) (cat \(chipPath)/npwm): writing \(channel) to \(export) was refused")
        } catch {
            throw writeError(error, file: export, value: "\(channel)")
        }
        guard try exists(channelPath) else {
            throw HardwareError(.notFound, "writing \(channel) to \(export) did not create \(channelPath): does \(chipPath) have a channel \(channel)? (cat \(chipPath)/npwm)")
        }
    }

    /// Period and duty cycle, then enable.
    public func output(period: Duration, duty: Duration) throws(HardwareError) {
        let p = period.nanoseconds
        let d = duty.nanoseconds
        precondition(p > 0 && d >= 0 && d <= p, "PWM needs 0 <= duty <= period and period > 0, not duty \(d) ns of period \(p) ns")
        try apply(Self.plan(from: current, period: p, duty: d))
    }

    public func disable() throws(HardwareError) {
        guard current.enabled != false else { return }
        try apply([Write(attribute: .enable, value: 0)])
    }

    /// The writes that take the channel from `current` to `period`/`duty`,
    /// enabled, with the duty cycle never above the period in between:
    /// - a shorter period: duty first (it fits under the new period, so
    ///   under the old one too), then period;
    /// - a longer or equal one: period first, then duty;
    /// - an unknown period: duty 0 first, which fits under any period.
    static func plan(from current: Setting, period: Int64, duty: Int64) -> [Write] {
        var writes: [Write] = []
        var duty0 = current.duty
        func set(_ attribute: Attribute, _ value: Int64, was old: Int64?) {
            if value != old { writes.append(Write(attribute: attribute, value: value)) }
        }
        switch current.period {
        case nil:
            set(.dutyCycle, 0, was: duty0)
            duty0 = 0
            set(.period, period, was: nil)
            set(.dutyCycle, duty, was: duty0)
        case let old? where period < old:
            set(.dutyCycle, duty, was: duty0)
            set(.period, period, was: old)
        case let old?:
            set(.period, period, was: old)
            set(.dutyCycle, duty, was: duty0)
        }
        if current.enabled != true { writes.append(Write(attribute: .enable, value: 1)) }
        return writes
    }

    private func apply(_ writes: [Write]) throws(HardwareError) {
        for write in writes {
            let file = "\(channelPath)/\(write.attribute.rawValue)"
            do {
                try Self.writeFile(file, "\(write.value)")
            } catch {
                current = Setting()
                throw writeError(error, file: file, value: "\(write.value)")
            }
            switch write.attribute {
            case .period: current.period = write.value
            case .dutyCycle: current.duty = write.value
            case .enable: current.enabled = write.value != 0
            }
        }
    }

    private func exists(_ path: String) throws(HardwareError) -> Bool {
        do {
            return try Syscall.exists(path)
        } catch {
            throw HardwareError(error == .permissionDenied ? .permission : .io, "cannot look for \(path): \(error)")
        }
    }

    /// One attribute write: sysfs takes the whole value in one write(2).
    /// `O_TRUNC` changes nothing in sysfs and keeps a plain file (a test
    /// tree) holding only the new value.
    private static func writeFile(_ path: String, _ text: String) throws(Errno) {
        let fd = try Syscall.open(path, O_WRONLY | O_TRUNC)
        defer { Syscall.close(fd) }
        let bytes = Array(text.utf8)
        let written = try Syscall.write(fd, bytes)
        // A short write to an attribute would be a kernel oddity; report
        // it as the I/O error it amounts to.
        if written != bytes.count { throw .ioError }
    }

    private func writeError(_ error: Errno, file: String, value: String) -> HardwareError {
        switch error {
        case .noSuchFileOrDirectory:
            HardwareError(.notFound, "\(file) does not exist: is the PWM channel exported and enabled in the device tree? On a Raspberry Pi add dtoverlay=pwm to /boot/firmware/config.txt and reboot")
        case .permissionDenied, .notPermitted:
            HardwareError(.permission, "no permission to write \(file): add the user to the gpio group (Raspberry Pi OS's udev rules give it the PWM files, a moment after an export) or run as root")
        case .invalidArgument:
            HardwareError(.unsupported, "\(file) refused \(value): outside what \(chipPath) can generate")
        default:
            HardwareError(.io, "cannot write \(value) to \(file): \(error); on a Raspberry Pi check dtoverlay=pwm in /boot/firmware/config.txt")
        }
    }
}
