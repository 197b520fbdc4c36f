/// Cross-site request forgery: a request that changes something is
/// refused when the browser says it comes from another site. Browsers send
/// `Sec-Fetch-Site` and `Origin` with every POST and DELETE; a request with
/// neither is not a browser's (curl, a script on the LAN holding a token)
/// and forgery is not what it can do. The cookie's SameSite=Strict keeps
/// it off cross-site requests as well.
public enum RequestGuard {
    public static func safe(_ method: String) -> Bool { method == "GET" || method == "HEAD" || method == "OPTIONS" }

    /// Why the request is refused, or nil. `headers` are keyed lower case.
    public static func crossSite(method: String, headers: [String: String]) -> String? {
        guard !safe(method) else { return nil }
        if let site = headers["sec-fetch-site"], site != "same-origin", site != "none" {
            return "refused: a request from another site (Sec-Fetch-Site: \(site))"
        }
        if let origin = headers["origin"] {
            let host = headers["host"] ?? ""
            let originHost = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
            if origin == "null" || originHost.isEmpty || originHost.lowercased() != host.lowercased() {
                return "refused: a request from another origin (\(origin.prefix(80)))"
            }
        }
        return nil
    }

    /// The value of cookie `name` in a Cookie header.
    public static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let kv = part.trimmingCharacters(in: " ")
            if kv.hasPrefix(name + "=") { return String(kv.dropFirst(name.count + 1)) }
        }
        return nil
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return s
    }
}
