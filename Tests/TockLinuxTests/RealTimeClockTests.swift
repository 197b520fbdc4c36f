import Foundation
import Testing
import TockCore
@testable import TockLinux

/// The RTC as sysfs shows it, on a made-up /sys/class/rtc.
@Suite struct RealTimeClockTests {
    func sysfs(_ files: [String: String], directories: [String] = []) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tock-rtc-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("rtc0")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        for name in directories { try FileManager.default.createDirectory(at: dir.appendingPathComponent(name), withIntermediateDirectories: true) }
        return root.path
    }

    @Test func readsTheNameTheTimeAndTheDrift() throws {
        let dir = try sysfs(["name": "rtc-ds1307 1-0068\n", "since_epoch": "1795669203\n", "hctosys": "1\n"])
        let rtc = try #require(RealTimeClock.first(in: dir))
        #expect(rtc.name == "rtc-ds1307 1-0068" && rtc.setTheSystemClock)
        let wall = WallTime(nanoseconds: 1_795_669_200_400_000_000)
        #expect(rtc.drift(from: wall) == 3)
        #expect(rtc.summary(against: wall, synchronised: true)
            == "/dev/rtc0 (rtc-ds1307 1-0068) reads 3 s ahead of the system clock (synchronised by NTP); the kernel set the clock from it at boot")
    }

    @Test func noRTCIsNilAndAnUnreadableOneSaysWhy() throws {
        #expect(RealTimeClock.first(in: try sysfs([:]).appending("/none")) == nil)
        let dir = try sysfs(["name": "rtc-ds1307 1-0068\n"], directories: ["since_epoch"])
        let rtc = try #require(RealTimeClock.first(in: dir))
        #expect(rtc.time == nil)
        #expect(rtc.problem == "/dev/rtc0 (rtc-ds1307 1-0068) cannot be read: Is a directory")
    }

    /// rtc_cmos and rtc-efi report whatever the chip holds: a time past
    /// 2262 overflowed the nanoseconds and crashed every start; past the
    /// trusted range it is a problem to fix, never a time.
    @Test(arguments: ["9300000000", "7258118400", "99999999999999999999999"])
    func aTimeOutsideTheTrustedRangeIsAProblemNotACrash(since: String) throws {
        let dir = try sysfs(["name": "rtc_cmos 00:01\n", "since_epoch": since + "\n"])
        let rtc = try #require(RealTimeClock.first(in: dir))
        #expect(rtc.time == nil)
        #expect(rtc.problem?.contains("outside 1970 to 2199-09-22: its time is wrong") == true)
        #expect(rtc.drift(from: WallTime(secondsSince1970: 1_795_669_200)) == nil)
    }
}
