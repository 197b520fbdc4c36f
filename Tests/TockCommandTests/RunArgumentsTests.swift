import ArgumentParser
import Testing
@testable import tock

/// `tock run`'s command line read by hand (the service's start-up) and by
/// ArgumentParser (everything else) must agree: on every line the hand
/// reader takes, it takes what ArgumentParser takes; on the rest it steps
/// aside.
@Suite struct RunArgumentsTests {
    private func byArgumentParser(_ line: [String]) -> RunArguments? {
        guard let parsed = try? Tock.parseAsRoot(["run"] + line), let run = parsed as? Run else { return nil }
        return RunArguments(config: run.config, backend: run.backend, trace: run.trace, mockInput: run.mockInput, timingLog: run.timingLog,
                            state: run.state, socket: run.socket, controlTimeout: run.controlTimeout, verbose: run.verbose, chips: run.chips)
    }

    static let taken: [[String]] = [
        [],
        ["--config", "/etc/tock/config.yaml"],  // deploy/tock.service
        ["--config=/etc/tock/config.yaml"],
        ["--backend", "mock", "--mock-input", "/tmp/in", "--state", "/tmp/s.json", "--socket", "/tmp/c.sock", "--trace", "/tmp/t.jsonl"],
        ["--verbose", "--chips", "/tmp/chips", "--control-timeout", "250ms", "--timing-log", "/tmp/timing"],
        ["--backend=gpiod", "--config", "with space.yaml", "--control-timeout=1s"],
        ["--config", ""],
        ["--config", "ünïcode/ÿ.yaml"],
    ]

    @Test(arguments: taken) func theHandReaderTakesWhatArgumentParserTakes(_ line: [String]) throws {
        let hand = try #require(RunArguments.parse(line))
        #expect(byArgumentParser(line) == hand)
    }

    static let refused: [[String]] = [
        ["--help"], ["-h"], ["--version"], ["--confg", "x"], ["--config"], ["--config", "--verbose"],
        ["--backend", "gpio"], ["--mock-input", "/tmp/in"], ["--verbose=yes"], ["extra"],
        ["--config", "a", "--config", "b"], ["--generate-completion-script", "bash"], ["-v"],
    ]

    /// Each line the hand reader leaves alone goes to ArgumentParser, which
    /// prints help or the mistake as it always has: never a line the hand
    /// reader takes differently.
    @Test(arguments: refused) func anythingElseIsLeftToArgumentParser(_ line: [String]) {
        #expect(RunArguments.parse(line) == nil)
    }
}
