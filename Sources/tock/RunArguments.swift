import TockDevices

/// `tock run`'s command line as the service unit gives it, read without
/// ArgumentParser: its parse reflects over every option of the command
/// (about 10 M instructions, most of the service's start-up). Only what
/// `Run` declares, in the forms ArgumentParser takes (`--name value`,
/// `--name=value`); anything else (help, a mistake, an option given twice,
/// a value that looks like an option) is nil, and ArgumentParser reads the
/// line instead, so that what it prints is what it always was. A test
/// compares the two on the same lines (RunArgumentsTests).
struct RunArguments: Equatable {
    var config: String?
    var backend: Devices.Backend = .gpiod
    var trace: String?
    var mockInput: String?
    var timingLog: String?
    var state: String?
    var socket: String?
    var controlTimeout = "5s"
    var verbose = false
    var chips = "/dev"

    /// The arguments after `tock run`.
    static func parse(_ arguments: some Collection<String>) -> RunArguments? {
        var a = RunArguments()
        var seen: [String] = []
        var rest = arguments[...]
        while let word = rest.popFirst() {
            guard word.hasPrefix("--") else { return nil }
            let body = word.dropFirst(2)
            let name: String
            var value: String?
            if let eq = body.firstIndex(of: "=") {
                name = String(body[..<eq])
                value = String(body[body.index(after: eq)...])
            } else {
                name = String(body)
            }
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            if name == "verbose" {
                guard value == nil else { return nil }
                a.verbose = true
                continue
            }
            if value == nil {
                guard let next = rest.popFirst(), !next.hasPrefix("-") else { return nil }
                value = next
            }
            guard let v = value else { return nil }
            switch name {
            case "config": a.config = v
            case "backend":
                guard let b = Devices.Backend(rawValue: v) else { return nil }
                a.backend = b
            case "trace": a.trace = v
            case "mock-input": a.mockInput = v
            case "timing-log": a.timingLog = v
            case "state": a.state = v
            case "socket": a.socket = v
            case "control-timeout": a.controlTimeout = v
            case "chips": a.chips = v
            default: return nil
            }
        }
        // Run.validate's rule: its message comes from ArgumentParser.
        if a.mockInput != nil, a.backend != .mock { return nil }
        return a
    }
}
