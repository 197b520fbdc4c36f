import Foundation
import Glibc
import Testing

/// The configuration-change rule through the real `tock run`: a reload or a
/// restart with a changed file never cuts a paused or running count short;
/// the file's list applies from the next reset, and edits made over the
/// socket last until the file's own list changes.
@Suite(.serialized) struct ConfigChangeProcessTests {
    typealias Service = ServiceProcessTests.Service
    typealias Client = ServiceProcessTests.Client

    /// Ask until the reload has been taken (the file is read twice,
    /// `ConfigReload.settle` apart, before it is acted on); bounded.
    func waitForReload(_ c: Client) -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let s = c.request(#"{"cmd":"status"}"#)
            if s["config_waits_for_reset"] as? Bool == true { return s }
        }
        Issue.record("the reload was not taken")
        return [:]
    }

    @Test func aShorterPresetByReloadOrRestartAppliesFromTheNextReset() throws {
        let svc = try Service(config: "timer: {presets: [10m]}\n")
        try svc.start()
        var c = try Client(svc.socket)
        #expect(c.request(#"{"cmd":"start"}"#)["state"] as? String == "running")
        let paused = c.request(#"{"cmd":"stop"}"#)
        #expect(paused["state"] as? String == "paused")
        let remaining = paused["remaining_ms"] as? Int ?? 0
        #expect(remaining > 590_000)

        try "timer: {presets: [1m]}\n".write(toFile: svc.dir + "/config.yaml", atomically: true, encoding: .utf8)
        Glibc.kill(svc.process.processIdentifier, SIGHUP)
        let reloaded = waitForReload(c)
        #expect(reloaded["state"] as? String == "paused")
        #expect(reloaded["remaining_ms"] as? Int == remaining)
        #expect(c.request(#"{"cmd":"start"}"#)["state"] as? String == "running")

        // SIGKILL and a restart with the changed file: the count goes on.
        svc.kill(SIGKILL)
        let again = try Service(dir: svc.dir, config: "timer: {presets: [1m]}\n")
        try again.start()
        c = try Client(again.socket)
        let restored = c.request(#"{"cmd":"status"}"#)
        #expect(restored["state"] as? String == "running")
        #expect((restored["remaining_ms"] as? Int ?? 0) > 500_000)
        #expect(restored["config_waits_for_reset"] as? Bool == true)
        #expect(c.request(#"{"cmd":"stop"}"#)["state"] as? String == "paused")
        let reset = c.request(#"{"cmd":"reset"}"#)
        #expect(reset["state"] as? String == "ready")
        #expect(c.request(#"{"cmd":"status"}"#)["preset"] as? String == "1m")
        again.kill(SIGTERM)
        #expect(again.startLog.contains("changed since the state was saved: the file's list is used from the next reset"))
    }

    @Test func anEditLastsUntilTheFilesListChanges() throws {
        let svc = try Service(config: "timer: {presets: [10m, 5m]}\n")
        try svc.start()
        var c = try Client(svc.socket)
        #expect(c.request(#"{"cmd":"set","duration":"2m"}"#)["ok"] as? Bool == true)
        svc.kill(SIGTERM)

        let same = try Service(dir: svc.dir, config: "timer: {presets: [10m, 5m]}\n")
        try same.start()
        c = try Client(same.socket)
        #expect(c.request(#"{"cmd":"status"}"#)["preset"] as? String == "2m")
        same.kill(SIGTERM)

        let changed = try Service(dir: svc.dir, config: "timer: {presets: [3m]}\n")
        try changed.start()
        c = try Client(changed.socket)
        #expect(c.request(#"{"cmd":"status"}"#)["preset"] as? String == "3m")
        changed.kill(SIGTERM)
        #expect(changed.startLog.contains("timer.presets changed in \(svc.dir)/config.yaml: the file's list is used; the presets set on the box are set aside"))

        // The file's list back as it was: so is the edit, from the state file.
        let back = try Service(dir: svc.dir, config: "timer: {presets: [10m, 5m]}\n")
        try back.start()
        c = try Client(back.socket)
        #expect(c.request(#"{"cmd":"status"}"#)["preset"] as? String == "2m")
        back.kill(SIGTERM)
        #expect(back.startLog.contains("the presets set on the box were made over: they are back"))
    }
}
