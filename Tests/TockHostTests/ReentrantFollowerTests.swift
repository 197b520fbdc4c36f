import Testing
import TockCore
import TockLoop
@testable import TockHost
@testable import TockShell

/// The shell reuses one outputs' list from batch to batch: a follower that
/// hands the shell an input while a batch is carried out gets a list of its
/// own, and the batch it was told about keeps the outputs it was told of.
@Suite struct ReentrantFollowerTests {
    let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))

    @Test func anInputFromAFollowerDoesNotChangeTheBatchItFollows() throws {
        let box = try TestBox("timer: {presets: [10s]}\ndisplay: {kind: none}\nbuzzer: {kind: none}", loop: loop)
        var told: [StateName?] = []
        var frames: [String] = []
        var handedBack = false
        box.shell.observe { change in
            let before = change.output
            if change.state == .running, !handedBack {
                handedBack = true
                box.shell.action(.pressed(.stop))  // a batch of its own, inside this one
            }
            #expect(change.output == before)
            told.append(change.state)
            if let f = change.frame { frames.append(f.text) }
        }
        box.shell.action(.pressed(.start))
        // The inner batch is told first, from inside the outer one.
        #expect(told == [.paused, .running])
        #expect(box.state == "paused")
        box.shell.action(.pressed(.start))  // on again: quiet ticks with the list put back
        loop.advance(by: .seconds(3))
        #expect(box.state == "running")
        #expect(frames.suffix(3) == ["00:09", "00:08", "00:07"].map { Frame(text: $0, digits: 4).text })
    }
}

/// The shell's timers reach it only while it exists: a box dropped while
/// its count's wake-ups are scheduled leaves timers that find no shell.
@Suite struct ShellLifetimeTests {
    @Test func timersOfAShellThatIsGoneDoNothing() throws {
        let loop = VirtualLoop(epoch: WallTime(secondsSince1970: 1_800_000_000))
        weak var gone: Shell?
        do {
            let box = try TestBox("timer: {presets: [10s]}\ndisplay: {kind: none}\nbuzzer: {kind: none}", loop: loop)
            box.shell.action(.pressed(.start))
            loop.advance(by: .seconds(1))
            #expect(box.shell.nextWake != nil)
            gone = box.shell
        }
        #expect(gone == nil)
        loop.advance(by: .seconds(20))  // the count's wake-ups come due with no shell
        #expect(gone == nil)
    }
}
