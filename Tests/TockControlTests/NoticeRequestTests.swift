import Testing
import TockControl

/// The pairing prompt's request from outside the box (any client of the
/// socket): every value one past its bound, or of the wrong kind, is
/// refused with what to send; the bounds themselves are taken.
@Suite struct NoticeRequestTests {
    func parse(_ line: String) -> Result<ControlRequest, ControlRequest.Invalid> {
        Result { () throws(ControlRequest.Invalid) in try ControlRequest.parse(Array(line.utf8)) }
    }

    @Test func theBoundsAreTaken() throws {
        let r = try parse(#"{"cmd":"notice","prompt":"HoLd","within":300,"text":"88888888","seconds":1}"#).get()
        #expect(r == .prompt(prompt: "HoLd", within: 300, text: "88888888", seconds: 1))
        #expect(try parse(#"{"cmd":"notice","prompt":"HoLd","within":1,"text":"4821","seconds":300}"#).get()
            == .prompt(prompt: "HoLd", within: 1, text: "4821", seconds: 300))
    }

    @Test(arguments: [
        #"{"cmd":"notice","prompt":"HoLd","within":0,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":301,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":9223372036854775807,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":-1,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":"30","text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLdHoLdH","within":30,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"","within":30,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"Hold\nx","within":30,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","text":"4821","seconds":120}"#,
        #"{"cmd":"notice","within":30,"text":"4821","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":30,"text":"4821","seconds":301}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":30,"text":"123456789","seconds":120}"#,
        #"{"cmd":"notice","prompt":"HoLd","within":30,"text":"4821","seconds":120,"confirmed":true}"#,
    ])
    func oneFieldOutOfBoundsIsRefusedWithWhatToSend(line: String) {
        guard case .failure(let e) = parse(line) else {
            Issue.record("taken: \(line)")
            return
        }
        #expect(e.description.contains("notice") || e.description.contains("confirmed"), "\(e.description)")
    }
}
