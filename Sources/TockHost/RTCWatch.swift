import Logging
import TockControl
import TockCore
import TockLinux

/// The battery-backed RTC for the status: read at most once a minute
/// (reading it is an I2C transfer to the chip), logged at the start and
/// whenever what it says of itself changes (found, lost its time, back).
final class RTCWatch {
    private let directory: String
    private let log: Logger
    private var last: (at: Instant, rtc: RealTimeClock?)?
    private var said: String?

    static let interval: Duration = .seconds(60)

    init(directory: String, log: Logger) {
        self.directory = directory
        self.log = log
    }

    /// The RTC as of at most a minute ago.
    func rtc(at now: Now) -> RealTimeClock? {
        if let l = last, now.monotonic - l.at < Self.interval { return l.rtc }
        let rtc = RealTimeClock.first(in: directory)
        last = (now.monotonic, rtc)
        let problem = rtc.map { $0.problem ?? "" }
        if problem != said {
            if let rtc {
                let line = "rtc: " + rtc.summary(against: now.wall, synchronised: now.wallSynchronised)
                if rtc.problem == nil { log.notice("\(line)") } else { log.warning("\(line)") }
            }
            said = problem
        }
        return rtc
    }

    func fields(_ s: inout BoxStatus, at now: Now) {
        guard let rtc = rtc(at: now) else { return }
        s.clock?.rtc = BoxStatus.Clock.RTC(name: rtc.name, driftS: rtc.drift(from: now.wall).map { Int($0) }, problem: rtc.problem)
    }
}
