/// One program for the box: run as `tock` it is the appliance and its
/// command line (`Tock`); run as `tock-web` (a link to it, as the package
/// installs it) it is the page on the LAN (`TockWebCommand`), in its own
/// process and unit with its own sandbox (deploy/tock-web.service). One
/// binary holds the code both share once on the card and in the package.
@main
enum Main {
    static func main() {
        let name = CommandLine.arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "tock"
        if name == "tock-web" {
            TockWebCommand.main()
        } else {
            Tock.main()
        }
    }
}
