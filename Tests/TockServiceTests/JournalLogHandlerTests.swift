import Foundation
import Glibc
import Testing
import TockService

/// Log lines carry journald's `<N>` priority prefix only when standard
/// error is journald's own stream; on a terminal they read as text.
@Suite struct JournalLogHandlerTests {
    @Test func journalLinesCarryThePriorityOnEveryLine() {
        #expect(JournalLogHandler.format(.warning, "a\nb") == "<4>a\n<4>b")
        #expect(JournalLogHandler.format(.info, "ready") == "<6>ready")
    }

    @Test func terminalLinesNameTheLevelOnlyWhenItIsNotInfo() {
        #expect(JournalLogHandler.plain(.info, "ready") == "ready")
        #expect(JournalLogHandler.plain(.warning, "clock stepped") == "warning: clock stepped")
        #expect(JournalLogHandler.plain(.error, "x") == "error: x")
    }

    /// A pipe stands for journald's stream: the variable names its device
    /// and inode exactly when descriptor and variable agree.
    @Test func theStreamIsJournaldOnlyWhenTheVariableNamesThisVeryDescriptor() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var info = stat()
        #expect(fstat(fds[1], &info) == 0)
        let mine = "\(info.st_dev):\(info.st_ino)"
        #expect(JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": mine], descriptor: fds[1]))
        let other = "\(info.st_dev):\(UInt64(info.st_ino) + 1)"
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": other], descriptor: fds[1]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: [:], descriptor: fds[1]))
        #expect(!JournalLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "junk"], descriptor: fds[1]))
    }

    /// Whatever a line quotes, the handler writes no ESC, CR or C1 control
    /// and no invalid UTF-8: a line that forgot to escape (`LogLine`) still
    /// cannot recolour a terminal or hide text; its own line breaks stay.
    @Test func everyMessageIsEscapedButItsOwnLineBreaks() {
        #expect(JournalLogHandler.escaped("state ready -> running") == "state ready -> running")
        // A line escaped once already (`LogLine`) is left as it is.
        #expect(JournalLogHandler.escaped(#"timer "A\n<3>x\e[2J" refused"#) == #"timer "A\n<3>x\e[2J" refused"#)
        #expect(JournalLogHandler.escaped("refused:\n  a: \u{1B}[2Jbad\r\u{9B}") == "refused:\n  a: \\e[2Jbad\\r\\u{9B}")
        #expect(JournalLogHandler.format(.error, JournalLogHandler.escaped("a\u{1B}\nb")) == "<3>a\\e\n<3>b")
        #expect(JournalLogHandler.escaped(String(repeating: "x", count: 20_000)).hasSuffix("…(+3616 bytes)"))
    }
}
