/// The network configuration the settings make, as text: wpa_supplicant's
/// for wlan0 and systemd-networkd's .network files for a static address.
public enum NetworkFiles {
    /// wpa_supplicant.conf(5). The SSID is written as hex (an unquoted
    /// `ssid=` is read as hex bytes) and the key as the 64-hex-digit PMK
    /// (an unquoted `psk=`): no byte the person typed can be read as a
    /// quote, an escape or the end of the line, and a 63-byte passphrase
    /// full of quotes is still 64 hex digits.
    ///
    /// With `hotspot`, its access point comes first (network 0, the one
    /// `tock setup hotspot` selects to open it), disabled: the radio
    /// joins the configured network until it is told otherwise, and a
    /// `wpa_cli reconfigure` (reading this file again) closes the hotspot.
    public static func wpaSupplicant(_ wifi: WifiNetwork?, hotspot: HotspotIdentity? = nil) throws(PBKDF2.Unavailable) -> String {
        var lines = ["ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev"]
        if let c = wifi?.country { lines.append("country=\(c)") }
        if let h = hotspot, let pmk = try h.network.pmk() {
            lines += ["network={", "  ssid=\(WifiNetwork.hex(h.ssid))", "  mode=2", "  frequency=\(hotspotFrequency)",
                      "  key_mgmt=WPA-PSK", "  proto=RSN", "  pairwise=CCMP", "  group=CCMP", "  psk=\(WifiNetwork.hex(pmk))",
                      "  disabled=1", "}"]
        }
        if let w = wifi {
            lines.append("network={")
            lines.append("  ssid=\(WifiNetwork.hex(w.ssid))")
            if w.hidden { lines.append("  scan_ssid=1") }
            if let pmk = try w.pmk() { lines.append("  psk=\(WifiNetwork.hex(pmk))") } else { lines.append("  key_mgmt=NONE") }
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Channel 6: allowed in every country's rules, with no radar detection.
    public static let hotspotFrequency = 2437

    /// A copy of one of the image's .network files (`base`, its text) with
    /// the static address in place of DHCP; nil for DHCP (the image's file
    /// is then used as it is).
    public static func staticNetwork(base: String, _ s: SetupSettings) -> String? {
        guard let a = s.address?.value else { return nil }
        var out: [String] = []
        for line in base.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("DHCP=") { continue }
            out.append(String(line))
            if line == "[Network]" {
                out.append("Address=\(a)")
                if let g = s.gateway?.value { out.append("Gateway=\(g)") }
                for d in s.dns?.value ?? [] { out.append("DNS=\(d)") }
            }
        }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }
}
