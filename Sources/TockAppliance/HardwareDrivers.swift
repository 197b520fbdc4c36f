import Logging
import TockGPIOD
import TockHardware

extension Hardware {
    /// The display driver for the configured kind.
    static func openDisplay(_ hw: HardwareConfig, address: [String: LineAddress], log: Logger) throws -> any SegmentDisplay {
        switch hw.display {
        case .none:
            return NoDisplay()
        case .tm1637, .ht16k33, .max7219:
            log.warning("display.kind \(hw.display.rawValue): driver not available in this build; frames are not shown")
            return NoDisplay()
        }
    }

    static func passiveBuzzer(_ hw: HardwareConfig) throws -> any Sounder {
        throw HardwareError(.unsupported, "buzzer.kind passive: PWM output not available in this build; use kind: active")
    }
}
