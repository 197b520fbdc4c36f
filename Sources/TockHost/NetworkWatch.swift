import Logging
import TockCore
import TockLinux
import TockLoop
import TockShell

/// Tells the core the box's IPv4 addresses and `.local` name whenever the
/// kernel adds or removes an address (`AddressWatch`: an rtnetlink socket
/// on the loop, no timer), and once at the start: that first report is
/// what the box already had, and only an address that appears later
/// scrolls across the display (docs/display.md, "The address on the
/// display").
final class NetworkWatch {
    private let watch: AddressWatch
    private let shell: Shell
    private let loop: any EventLoop
    private let log: Logger
    private var watching = false
    /// What was last reported.
    private(set) var last: NetworkIdentity?

    init(shell: Shell, loop: any EventLoop, log: Logger) throws {
        watch = try AddressWatch()
        self.shell = shell
        self.loop = loop
        self.log = log
    }

    func start() {
        do {
            try loop.watch(watch.descriptor.rawValue) { [unowned self] in changed() }
            watching = true
        } catch {
            log.warning("network: the address notices cannot be watched (\(error)); the address shows on the display only when Stop is held")
        }
        report()
    }

    func stop() {
        if watching { try? loop.unwatch(watch.descriptor.rawValue) }
        watching = false
        watch.close()
    }

    private func changed() {
        guard watch.drain() > 0 else { return }
        report()
    }

    /// At most this many addresses are kept (the status's list; the
    /// display shows three): a box with hundreds of addresses is a
    /// misconfiguration, and the status must stay one short line.
    static let keptAddresses = 16

    private func report() {
        let identity = NetworkIdentity(addresses: Array(AddressWatch.addresses().prefix(Self.keptAddresses)), name: AddressWatch.localName())
        guard identity != last else { return }
        if last != nil || !identity.addresses.isEmpty {
            let list = identity.addresses.isEmpty ? "no IPv4 address" : identity.addresses.joinedText(separator: ", ")
            log.info("network: \(list) (\(identity.name))")
        }
        last = identity
        shell.network(identity)
    }
}
