import Glibc
import TockCore
import TockDrivers
import TockHardware
import TockMock

// The real TM1637 driver showing frames over the mock two-wire bus.
//
//     tm1637-frames KIND [FRAMES] [null]
//
// KIND 1, 2, 3 or 4: frames that alternate between `12:34` and one that
// differs from it in that many digits; `count`: a count-down from 10:00,
// one frame a second. Each frame shown through `measured` (callgrind
// counts that function: --toggle-collect=*measured*) prints one line:
//
//     frame TEXT ops N wait_ns W tx HEX,HEX;HEX...
//
// its line operations (each an ioctl on a real board), the bus time its
// waits stand for (a spin on a real board, no instructions here) and the
// transactions it sent. With `null` the bus is one that does nothing (it
// acknowledges every byte and checks nothing), so what callgrind counts is
// the driver's own work; nothing is printed.

/// Two lines and a delay that do nothing: the driver's cost alone.
final class NullBus: TwoWirePins, Delay {
    func setClock(_ high: Bool) throws {}
    func setData(_ high: Bool) throws {}
    func readData() throws -> Bool { false }
    func wait(_ d: Duration) {}
}

@inline(never)
func measured(_ display: TM1637, _ frame: Frame) {
    try! display.show(frame)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: tm1637-frames 1|2|3|4|count [FRAMES]")
    exit(2)
}
let count = arguments.count > 2 ? Int(arguments[2])! : 120
let texts: [String]
switch arguments[1] {
case "count":
    texts = (0..<count).map { i in
        let s = 600 - i
        return "\(s / 600)\(s / 60 % 10):\(s % 60 / 10)\(s % 10)"
    }
default:
    let other = ["1": "12:35", "2": "12:45", "3": "13:45", "4": "23:45"][arguments[1]]!
    texts = (0..<count).map { $0 % 2 == 0 ? other : "12:34" }
}

if arguments.count > 3, arguments[3] == "null" {
    let bus = NullBus()
    let display = TM1637(pins: bus, delay: bus, clockLine: "CLK", dataLine: "DIO")
    try! display.show(Frame(text: arguments[1] == "count" ? "10:01" : "12:34", digits: 4))
    for text in texts { measured(display, Frame(text: text, digits: 4)) }
    exit(0)
}

let bus = MockTwoWireBus()
let display = TM1637(pins: bus, delay: bus, clockLine: "CLK", dataLine: "DIO")
// The first frame (data command, every register, the control byte) is not measured.
try! display.show(Frame(text: arguments[1] == "count" ? "10:01" : "12:34", digits: 4))
for text in texts {
    bus.clearLog()
    let ops = bus.lineOperations
    let before = bus.now
    measured(display, Frame(text: text, digits: 4))
    precondition(bus.protocolErrors.isEmpty && bus.text() == text, "the wire shows \(bus.text()), not \(text)")
    let tx = bus.transactions.map { $0.map { String($0, radix: 16) }.joined(separator: ",") }.joined(separator: ";")
    print("frame \(text) ops \(bus.lineOperations - ops) wait_ns \((bus.now - before).nanoseconds) tx \(tx)")
}
