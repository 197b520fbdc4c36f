import CTockLinux
import TockCore
import TockLoop

/// The program's start-up leaves most of its code and constants resident:
/// argument parsing, the configuration's YAML, the runtime's metadata
/// lookups and the state file's first write touch pages spread over the
/// image, and the kernel maps up to 64 KiB of cached neighbours around
/// every page fault (fault-around, which madvise(2) cannot turn off). As
/// each stage of start-up ends (the command line, the configuration, the
/// rest up to ready), those pages are let go: the read-only segments of the
/// program and its libraries leave the resident set, and what comes next
/// maps what it touches again from the page cache (minor faults, a few
/// hundred in all). Writable data is not touched.
public enum ImagePages {
    /// The bytes of address space released, or nil if madvise(2) refused a
    /// segment (then nothing is wrong, only more stays resident).
    @discardableResult
    public static func releaseStartupPages() -> Int? {
        let result = tock_release_image_pages()
        return result >= 0 ? Int(result) : nil
    }
}

extension ImagePages {
    /// How often a running program lets its read-only pages go again: what
    /// a rare path touched (a press's first run through the core, a reload,
    /// an MQTT connection, a pairing) leaves the resident set, and what runs
    /// every second maps back the few pages it needs (a few dozen minor
    /// faults a minute: docs/benchmarks.md, "Memory").
    public static let every: Duration = .seconds(60)

    /// `releaseStartupPages` once every `every` on a loop, until `stop()`.
    public final class Trim {
        private let loop: any EventLoop
        private var timer: LoopTimer!

        public init(loop: any EventLoop) {
            self.loop = loop
            timer = loop.makeTimer { [unowned self] in fired() }
            timer.schedule(at: loop.now().monotonic + ImagePages.every)
        }

        deinit { timer.cancel() }

        private func fired() {
            ImagePages.releaseStartupPages()
            timer.schedule(at: loop.now().monotonic + ImagePages.every)
        }

        public func stop() { timer.cancel() }
    }
}
