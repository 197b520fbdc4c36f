// The seed tutorial ("Using NSTimer to Make a Timer or Alarm", seeds/000)
// moved from UIKit to a Linux process: a Foundation `Timer` repeating every
// 0.05 s on the main run loop subtracts 0.05 from the remaining time at
// each fire and writes the mm:ss.s label. Buttons and the Up/Down switch
// arrive as lines on a named pipe (the same protocol as `tock run
// --mock-input`), read by a FileHandle readability handler and acted on on
// the main queue, as UIKit delivers actions on the main thread.
//
// Kept faithful on purpose, bugs included. Only instrumentation is added:
// CLOCK_MONOTONIC instants of readiness, each timer fire, each label write
// and the alarm, kept in memory and written to the log file at SIGTERM.
//
// usage: swift-timer SECONDS INPUT-FIFO LOG-FILE
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let seconds = Double(arguments[1]) else {
    FileHandle.standardError.write("usage: swift-timer SECONDS INPUT-FIFO LOG-FILE\n".data(using: .utf8)!)
    exit(2)
}

// MARK: instrumentation (not in the tutorial)

@Sendable func monotonic() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}
var record: [String] = []
record.reserveCapacity(100_000)
/// When the repeating timer was scheduled: it fires on the grid
/// t0 + k * interval, skipping grid points it missed (CFRunLoopTimer).
var timerScheduledAt: Int64 = 0

// MARK: the tutorial's view controller

// SWIFT_TIMER_INTERVAL (seconds): the benchmark's fairest peer ticks once a
// second, as Tock's MM:SS changes; the tutorial's is 0.05.
let timeInterval: TimeInterval = ProcessInfo.processInfo.environment["SWIFT_TIMER_INTERVAL"].flatMap(Double.init) ?? 0.05 // smaller interval
let timerEnd: TimeInterval = seconds  // seconds to end the timer
var timeCount: TimeInterval = timerEnd // counter for the timer
var timer: Timer? // the tutorial's NSTimer(), which Linux Foundation does not offer
var isTiming = false
var countingDownOn = true // the UISwitch: on = counting down

var timerLabelText = "" {
    didSet { record.append("frame \(monotonic()) \(timerLabelText)") }
}

@Sendable func timeString(_ time: TimeInterval) -> String {
    let minutes = Int(time) / 60
    let seconds = time - Double(minutes) * 60
    let secondsFraction = seconds - Double(Int(seconds))
    return String(format: "%02i:%02i.%01i", minutes, Int(seconds), Int(secondsFraction * 10.0))
}

@Sendable func resetTimeCount() {
    if countingDownOn {
        timeCount = timerEnd
    } else {
        timeCount = 0.0
    }
}

@Sendable func timerDidEnd(_ timer: Timer) {
    let now = monotonic()
    let k = (now - timerScheduledAt) / Int64(timeInterval * 1e9)
    record.append("wake \(timerScheduledAt + k * Int64(timeInterval * 1e9)) \(now)")
    if countingDownOn {
        // timer that counts down
        timeCount = timeCount - timeInterval
        if timeCount <= 0 { // test for target time reached.
            timerLabelText = "Pizza Ready!!"
            record.append("buzzer \(monotonic()) on")
            timer.invalidate()
            isTiming = false
        } else { // update the time on the clock if not reached
            timerLabelText = timeString(timeCount)
        }
    } else {
        // timer that counts up
        timeCount = timeCount + timeInterval
        if timeCount >= timerEnd { // test for target time reached.
            timerLabelText = "Pizza Ready!!"
            record.append("buzzer \(monotonic()) on")
            timer.invalidate()
            isTiming = false
        } else {
            timerLabelText = timeString(timeCount)
        }
    }
}

@Sendable func startTimer() {
    if timer?.isValid != true { // prevent more than one timer on the thread
        timerLabelText = timeString(timeCount) // change to show clock instead of message
        timerScheduledAt = monotonic()
        timer = Timer.scheduledTimer(withTimeInterval: timeInterval, repeats: true, block: timerDidEnd)
        isTiming = true
    }
}

@Sendable func stopTimer() {
    timerLabelText = "Timer Stopped"
    timer?.invalidate()
    isTiming = false
}

@Sendable func resetTimer() {
    timer?.invalidate()
    isTiming = false
    resetTimeCount()
    timerLabelText = timeString(timeCount)
}

@Sendable func countingDown(on: Bool) {
    countingDownOn = on
    if !isTiming {
        resetTimeCount()
        timerLabelText = timeString(timeCount)
    }
}

// MARK: the panel: edges from the pipe, actions on the main thread

guard let input = FileHandle(forReadingAtPath: arguments[2]) else {
    FileHandle.standardError.write("cannot open \(arguments[2])\n".data(using: .utf8)!)
    exit(1)
}
var pending = ""
input.readabilityHandler = { handle in
    let data = handle.availableData
    DispatchQueue.main.async {
        pending += String(decoding: data, as: UTF8.self)
        while let nl = pending.firstIndex(of: "\n") {
            let words = pending[..<nl].split(separator: " ")
            pending = String(pending[pending.index(after: nl)...])
            guard words.count >= 2 else { continue }
            let level = words[1] == "1"
            switch (words[0], level) {
            case ("start", true): startTimer()
            case ("stop", true): stopTimer()
            case ("reset", true): resetTimer()
            case ("switch", _): countingDown(on: !level) // Up = counting up
            default: break
            }
        }
    }
}

signal(SIGTERM, SIG_IGN)
let terminate = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
terminate.setEventHandler {
    let text = record.joined(separator: "\n") + "\n"
    _ = FileManager.default.createFile(atPath: arguments[3], contents: text.data(using: .utf8))
    exit(0)
}
terminate.resume()

timerLabelText = timeString(timeCount)
record.append("ready \(monotonic())")
print("ready")
fflush(stdout)
RunLoop.main.run()
