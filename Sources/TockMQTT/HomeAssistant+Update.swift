import TockControl
import TockJSON

/// Home Assistant's *Update* entity for the box: the tock package's version
/// installed and the newest its apt repository offers, as the daily check
/// found them (`UpdateCheck`, docs/updates.md). It has no command topic:
/// Home Assistant shows no Install, and nothing from it or the network
/// installs; `tock-update`, run as root on the box, does.
extension HomeAssistant {
    /// `<prefix>/update`: the JSON Home Assistant's MQTT update platform reads.
    public static let updateTopic = "update"

    static var updateEntity: Entity {
        Entity("update", "update", "Update", ["state_topic": .string(updateTopic), "device_class": "firmware", "title": "Tock",
                                             "entity_category": "config", "icon": "mdi:package-up"])
    }

    /// Home Assistant cuts a release summary at 255 characters.
    public static let maxSummary = 255

    /// The update entity's state. `installed_version` is the package's
    /// (the check's), or `running` (this tock's own release) before any
    /// check. `latest_version` is only sent when the check knew it:
    /// the repository's newest when dpkg called it newer, the installed
    /// one when it did not (Home Assistant compares versions its own way,
    /// which knows no epochs nor `~`: "current" is the box's word, not its).
    /// Without one (no repository, refused, no answer, not checked yet)
    /// it is left out, so Home Assistant shows the state as unknown and
    /// the summary says why, rather than "up to date".
    public static func updateState(_ check: UpdateCheck?, running: String) -> String {
        let installed = check?.installed ?? running
        var latest: String?
        let summary: String
        switch check?.result {
        case nil:
            summary = "Not checked yet: the box checks its apt repository daily (tock-update-check.timer)."
        case .available?:
            latest = check?.latest
            summary = "Tock \(check?.latest ?? "") is available. Install it on the box: tock-update, as root (ssh)."
        case .current?:
            latest = installed
            summary = "Up to date: the repository offers \(check?.latest ?? "")."
        case .noRepository?:
            summary = "No repository configured: \(check?.reason ?? "")"
        case .refused?:
            summary = "The repository was refused: \(check?.reason ?? "")"
        case .unreachable?:
            summary = "The repository did not answer: \(check?.reason ?? "")"
        case .invalid?:
            summary = "The repository's version was refused: \(check?.reason ?? "")"
        }
        let checked = check.map { " Checked \($0.checked)." } ?? ""
        var fields: JSONObject = ["installed_version": .string(installed), "title": "Tock",
                                  "release_summary": .string(String((summary + checked).prefix(maxSummary)))]
        fields.set("latest_version", latest)
        return JSON.object(fields).text()
    }
}
