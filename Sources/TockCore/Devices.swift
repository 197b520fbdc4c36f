/// What the machine drives: the display (drawn by the renderer, at the
/// brightness set by hand, the night's and the room's light) and the
/// buzzer.
extension Machine {
    @usableFromInline struct Devices: Sendable {
        var buzzer: Buzzer
        var renderer: Renderer
        /// The brightness by day and the night schedule in use (`Dimming`).
        @usableFromInline var dimming: Dimming
        /// The level the room's light asks for (`Settings.light`); not kept
        /// across a restart: the first reading comes within seconds.
        @usableFromInline var ambient: AmbientLight? { didSet { roomLevel = ambient?.level } }
        /// `ambient?.level`, kept as it changes: a frame reads it without
        /// copying the sensor's state out of its optional.
        private(set) var roomLevel: Int?

        /// - Parameter saved: the brightness and night schedule a snapshot
        ///   kept (set from outside): kept while the file's values are the
        ///   ones it was set over.
        init(settings: Settings, saved: DimmingSnapshot?) {
            buzzer = Buzzer(escalateAfter: settings.alarm.escalateAfter)
            buzzer.volume = settings.alarm.volume
            buzzer.sounds = settings.alarm.sounds
            if let tune = settings.alarm.tune { buzzer.alarmPattern = RTTTL.pattern(tune) }
            dimming = saved.flatMap { $0.file == Dimming(settings.display).record ? $0.dimming : nil } ?? Dimming(settings.display)
            ambient = settings.light.map(AmbientLight.init)
            roomLevel = ambient?.level
            renderer = Renderer(digits: settings.display.digits, brightness: dimming.brightness)
        }

        /// What to show, drawn, at the brightness in use: the lowest wins,
        /// so the room's light never brightens past the level set by hand
        /// or the night's (docs/display.md, "Brightness").
        /// `level`: the brightness by day or the night's (`Dimming.level`).
        func frame(_ p: Presentation, count: Int64?, at now: Now, level: Int, lastPoint: Bool) -> Frame {
            var frame = renderer.frame(for: p, at: now.monotonic, count: count)
            frame.brightness = level
            if let room = roomLevel { frame.brightness = min(frame.brightness, room) }
            if lastPoint { frame.lightLastPoint() }
            return frame
        }

        /// Change the brightness and the night schedule, at once.
        mutating func setDimming(_ d: Dimming) {
            dimming = d
            renderer.brightness = d.brightness
        }
    }
}
