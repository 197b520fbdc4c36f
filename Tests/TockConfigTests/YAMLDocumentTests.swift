import Testing
@testable import TockConfig

/// The configuration's YAML reader (libyaml's events into one tree): what
/// it keeps of a document, and what it refuses of a hostile one.
@Suite struct YAMLDocumentTests {
    private func parse(_ text: String) throws(YAMLProblem) -> Node? { try YAMLDocument.parse(Array(text.utf8)) }

    private func scalars(_ node: Node?) -> [String] {
        guard let node else { return [] }
        switch node.value {
        case .scalar(let s): return [s]
        case .sequence(let items): return items.flatMap { scalars($0) }
        case .mapping(let pairs): return pairs.flatMap { scalars($0.key) + scalars($0.value) }
        }
    }

    @Test func everyScalarIsTextWithItsLine() throws {
        let root = try #require(try parse("mode: timer\ntimer:\n  presets: [5m, \"10m\", 0x10]\n  lead_in: !!int 3\nnote: |\n  two\n  lines\n"))
        #expect(scalars(root) == ["mode", "timer", "timer", "presets", "5m", "10m", "0x10", "lead_in", "3", "note", "two\nlines\n"])
        guard case .mapping(let top) = root.value else { Issue.record("not a mapping"); return }
        #expect(top.map(\.key.line) == [1, 2, 5])
        guard case .mapping(let timer) = top[1].value.value else { Issue.record("timer is not a mapping"); return }
        #expect(timer.map(\.value.line) == [3, 4])
    }

    @Test func nothingButCommentsIsNoDocument() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# only a comment\n\n   \n") == nil)
    }

    @Test func anchorsAndAliasesAreFollowed() throws {
        let root = try parse("work: &w 40s\nrest: *w\nlist: &l [a, b]\nagain: *l\n")
        #expect(scalars(root) == ["work", "40s", "rest", "40s", "list", "a", "b", "again", "a", "b"])
    }

    @Test func anAliasToNoAnchorIsRefusedWithItsLine() {
        #expect(throws: YAMLProblem.self) { try parse("a: 1\nb: *nowhere\n") }
        do { _ = try parse("a: 1\nb: *nowhere\n") } catch { #expect(error.line == 2 && error.message.contains("*nowhere")) }
    }

    @Test func aSecondDocumentIsRefused() {
        do { _ = try parse("mode: timer\n---\nmode: stopwatch\n"); Issue.record("accepted") } catch {
            #expect(error.line == 2 && error.message.contains("second document"))
        }
    }

    @Test func aSyntaxErrorNamesItsLineAndColumn() {
        do { _ = try parse("mode: timer\ntimer:\n\tpresets: [5m]\n"); Issue.record("accepted") } catch {
            #expect(error.line == 3 && error.message.contains("line 3, column 1"))
        }
        do { _ = try parse("a: [1, 2\nb: 3\n"); Issue.record("accepted") } catch {
            #expect(error.line >= 2 && error.message.contains("flow sequence"))
        }
    }

    /// Nine levels of aliases, each ten of the one before: 10^9 values from
    /// a few hundred bytes. Refused at the limit, not expanded.
    @Test func anAliasBombIsRefusedAtTheLimit() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...9 { text += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        do { _ = try parse(text); Issue.record("accepted") } catch {
            #expect(error.message.contains("more than \(YAMLDocument.maxNodes) values"))
        }
    }

    /// The attacker who stays one under: a list of exactly `maxNodes`
    /// values (the list and its items) is read; one more is refused.
    @Test func theNodeLimitIsExact() throws {
        let under = "[" + Array(repeating: "x", count: YAMLDocument.maxNodes - 1).joined(separator: ",") + "]"
        let root = try #require(try parse(under))
        guard case .sequence(let items) = root.value else { Issue.record("not a list"); return }
        #expect(items.count == YAMLDocument.maxNodes - 1)
        let over = "[" + Array(repeating: "x", count: YAMLDocument.maxNodes).joined(separator: ",") + "]"
        #expect(throws: YAMLProblem.self) { try parse(over) }
    }

    @Test func nestingIsBoundedExactly() throws {
        let deepest = String(repeating: "[", count: YAMLDocument.maxDepth) + String(repeating: "]", count: YAMLDocument.maxDepth)
        #expect(try parse(deepest) != nil)
        let deeper = "[" + deepest + "]"
        do { _ = try parse(deeper); Issue.record("accepted") } catch {
            #expect(error.message.contains("nested deeper than \(YAMLDocument.maxDepth)"))
        }
        // Far past the limit (the file's whole 64 KiB): refused, no stack overflow.
        let flood = String(repeating: "[", count: 65_536)
        #expect(throws: YAMLProblem.self) { try parse(flood) }
    }

    @Test func aConfigurationReadsThroughAnAlias() throws {
        let c = try Configuration.parse(yaml: "timer:\n  presets: &p [5m, 10m]\ninterval:\n  work: &w 40s\n  rest: *w\n", file: "c.yaml")
        #expect(c.settings.interval.rest == .seconds(40))
    }

    @Test func aKeyThatIsAListIsRefused() {
        do { _ = try Configuration.parse(yaml: "mode: timer\n[a, b]: 1\n", file: "c.yaml"); Issue.record("accepted") } catch let e as ConfigError {
            #expect(e.problems.first?.line == 2 && e.description.contains("keys must be plain words"))
        } catch { Issue.record("\(error)") }
    }

    /// /etc/localtime's target names the zone after its last "zoneinfo/".
    @Test func theSystemZonesNameIsWhatFollowsZoneinfo() {
        #expect(ZoneFile.afterLastZoneinfo("/usr/share/zoneinfo/Europe/Berlin") == "Europe/Berlin")
        #expect(ZoneFile.afterLastZoneinfo("../usr/share/zoneinfo/posix/zoneinfo/UTC") == "UTC")
        #expect(ZoneFile.afterLastZoneinfo("/etc/zones/Berlin") == "/etc/zones/Berlin")
        #expect(ZoneFile.afterLastZoneinfo("zoneinfo/") == "")
        #expect(ZoneFile.afterLastZoneinfo("") == "")
    }
}
