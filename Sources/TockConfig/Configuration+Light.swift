import TockCore

extension Configuration {
    /// `light: {sensor: bh1750, i2c_bus: 1, i2c_address: 0x23, every: 2s,
    /// smoothing: 4s, hysteresis: 25%, floor: 0, ceiling: 7,
    /// curve: [1, 5, 15, 40, 100, 250, 600]}` (docs/display.md, "Brightness").
    mutating func readLight(_ node: Node?, _ r: ConfigReader) {
        guard let node else { return }
        let m = r.mapping(node, "light", allowed: ["sensor", "i2c_bus", "i2c_address", "every", "smoothing", "hysteresis", "floor", "ceiling", "curve"])
        if let v = m["sensor"], let s = r.choice(v, "light.sensor", HardwareConfig.LightKind.allCases.map(\.rawValue)) {
            hardware.light = .init(rawValue: s)!
        } else if m["sensor"] == nil {
            hardware.light = .bh1750  // the one sensor there is
        }
        if let v = m["i2c_bus"], let k = r.int(v, "light.i2c_bus", 0...255) { hardware.lightI2CBus = k }
        if let v = m["i2c_address"], let k = r.int(v, "light.i2c_address", 0x08...0x77) {
            if ![0x23, 0x5C].contains(k) { r.problem(v, "light.i2c_address", "a BH1750 answers at 0x23 (ADDR low or open) or 0x5c (ADDR high), not 0x\(String(k, radix: 16))") }
            hardware.lightAddress = k
        }
        var l = LightSettings()
        if let v = m["every"], let d = r.duration(v, "light.every", min: .milliseconds(500), max: .seconds(60)) { l.every = d }
        if let v = m["smoothing"], let d = r.duration(v, "light.smoothing", min: .zero, max: .seconds(600)) { l.smoothing = d }
        if let v = m["hysteresis"], let s = r.string(v, "light.hysteresis") {
            if let p = Int(s.hasSuffix("%") ? String(s.dropLast()) : s), (0...100).contains(p) {
                l.hysteresis = Double(p) / 100
            } else {
                r.problem(v, "light.hysteresis", "\"\(s)\" is not a percentage from 0% to 100% (e.g. 25%)")
            }
        }
        if let v = m["floor"], let k = r.int(v, "light.floor", 0...7) { l.floor = k }
        if let v = m["ceiling"], let k = r.int(v, "light.ceiling", 0...7) { l.ceiling = k }
        if l.floor > l.ceiling { r.problem(m["ceiling"] ?? node, "light.ceiling", "must not be below light.floor (\(l.floor))") }
        if let v = m["curve"], let items = r.list(v, "light.curve") {
            let lux = items.compactMap { item -> Double? in
                guard let s = r.string(item, "light.curve"), let x = Double(s), x.isFinite, x > 0, x <= LightSettings.maxLux else { return nil }
                return x
            }
            if lux.count != 7 || zip(lux, lux.dropFirst()).contains(where: { $0 >= $1 }) {
                r.problem(v, "light.curve", "needs 7 rising illuminances in lux, where levels 1 to 7 begin (e.g. [1, 5, 15, 40, 100, 250, 600])")
            } else {
                l.curve = lux
            }
        }
        if hardware.light != .none { settings.light = l }
    }
}
