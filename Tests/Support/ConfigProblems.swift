import Testing
import TockConfig

/// The problems a configuration text has (none when it parses), as
/// `tock config check` reports them.
public func configProblems(_ yaml: String, file: String = "c.yaml") -> [ConfigProblem] {
    do {
        _ = try Configuration.parse(yaml: yaml, file: file)
        return []
    } catch let e as ConfigError {
        return e.problems
    } catch {
        Issue.record("unexpected \(error)")
        return []
    }
}
