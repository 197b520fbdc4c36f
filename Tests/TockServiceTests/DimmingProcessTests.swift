import Foundation
import Glibc
import Testing

/// The brightness and the night schedule set over the socket, through the
/// real `tock run`: kept in the state file across a kill and a reload of an
/// unchanged file; a file whose display keys changed wins, at a reload or
/// a restart, and the log says so.
@Suite(.serialized) struct DimmingProcessTests {
    typealias Service = ServiceProcessTests.Service
    typealias Client = ServiceProcessTests.Client

    /// Ask until `ok` holds for the status (the signal and the request
    /// reach the loop in either order; each answer is a turn of the loop,
    /// so the signal is taken within a few); bounded, as
    /// `ConfigChangeProcessTests.waitForReload`.
    func waitFor(_ c: Client, _ what: String, _ ok: ([String: Any]) -> Bool) -> [String: Any] {
        // A reload is acted on once two reads of the file agree, 200 ms apart.
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let s = c.request(#"{"cmd":"status"}"#)
            if ok(s) { return s }
        }
        Issue.record("\(what) did not happen")
        return [:]
    }

    @Test func anEditOutlivesAKillAndAReloadUntilTheFilesDisplayKeysChange() throws {
        let file = "timer: {presets: [10m]}\ndisplay: {brightness: 6}\n"
        let svc = try Service(config: file)
        try svc.start()
        var c = try Client(svc.socket)
        #expect(c.request(#"{"cmd":"brightness","level":2}"#)["brightness"] as? Int == 2)
        let night = c.request(#"{"cmd":"night","from":"22:00","to":"07:00","brightness":1}"#)["night"] as? [String: Any]
        #expect(night?["from"] as? String == "22:00")
        svc.kill(SIGKILL)

        let again = try Service(dir: svc.dir, config: file)
        try again.start()
        c = try Client(again.socket)
        var s = c.request(#"{"cmd":"brightness"}"#)
        #expect(s["brightness"] as? Int == 2)
        #expect((s["night"] as? [String: Any])?["to"] as? String == "07:00")

        // A reload that changes only the presets keeps the edit.
        try "timer: {presets: [10m, 5m]}\ndisplay: {brightness: 6}\n".write(toFile: again.dir + "/config.yaml", atomically: true, encoding: .utf8)
        Glibc.kill(again.process.processIdentifier, SIGHUP)
        s = waitFor(c, "the reload of the presets") { ($0["presets"] as? [String])?.count == 2 }
        #expect(s["brightness"] as? Int == 2)
        #expect(s["night"] != nil)
        // One that changes display.brightness puts the file's values back at once.
        try "timer: {presets: [10m, 5m]}\ndisplay: {brightness: 5}\n".write(toFile: again.dir + "/config.yaml", atomically: true, encoding: .utf8)
        Glibc.kill(again.process.processIdentifier, SIGHUP)
        s = waitFor(c, "the reload of the brightness") { $0["brightness"] as? Int == 5 }
        #expect(s["night"] == nil)
        #expect(s["brightness_now"] as? Int == 5)
        #expect(c.request(#"{"cmd":"brightness","level":1}"#)["brightness"] as? Int == 1)
        again.kill(SIGTERM)
        #expect(again.stderr.contains("the file's values replace the ones set with tock brightness"))

        // A restart with another display.brightness: the file wins, and says so.
        let changed = try Service(dir: svc.dir, config: "timer: {presets: [10m, 5m]}\ndisplay: {brightness: 4}\n")
        try changed.start()
        c = try Client(changed.socket)
        #expect(c.request(#"{"cmd":"status"}"#)["brightness"] as? Int == 4)
        changed.kill(SIGTERM)
        #expect(changed.startLog.contains("the ones set with tock brightness, tock night or the web page are dropped"))
    }

    @Test func theSwitchAndTheCommandLine() throws {
        let svc = try Service(config: "timer: {presets: [10m]}\n")
        try svc.start()
        func tock(_ args: [String]) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: ServiceProcessTests.binary)
            p.arguments = args + ["--socket", svc.socket]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text)
        }
        let up = try tock(["switch", "up"]).1
        #expect(up.contains("display \"00:00\", mode timer, preset 10m, switch up") && !up.contains("counting"), "\(up)")
        // A count keeps its direction when the switch moves: the line says both.
        let down = try tock(["switch", "down"]).1
        #expect(down.contains("switch down") && !down.contains("counting"), "\(down)")
        #expect(try tock(["start"]).1.hasPrefix("running,"))
        let moved = try tock(["switch", "up"]).1
        #expect(moved.contains("switch up, counting down"), "\(moved)")
        #expect(try tock(["stop"]).1.hasPrefix("paused,"))
        let reset = try tock(["reset"]).1
        #expect(reset.hasPrefix("ready,") && reset.contains("switch up") && !reset.contains("counting"), "\(reset)")
        #expect(try tock(["brightness", "3"]).1 == "brightness 3, no night schedule (now 3)\n")
        #expect(try tock(["night", "22:00", "07:00", "1"]).1.hasPrefix("brightness 3, night 22:00-07:00 at 1"))
        #expect(try tock(["night", "off"]).1.hasPrefix("brightness 3, no night schedule"))
        // Mistakes on the command line are 64, and nothing is sent.
        for args in [["switch", "sideways"], ["brightness", "8"], ["night", "22:00", "22:00", "1"], ["night", "22:00"], ["night", "22:00", "7:00", "9"]] {
            #expect(try tock(args).0 == 64, "\(args)")
        }
        let c = try Client(svc.socket)
        let s = c.request(#"{"cmd":"status"}"#)
        #expect((s["switch"] as? String, s["brightness"] as? Int, s["night"] == nil) == ("up", 3, true))
        svc.kill(SIGTERM)
    }
}
