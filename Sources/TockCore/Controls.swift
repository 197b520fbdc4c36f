/// The three momentary push buttons on the front panel.
public enum Button: String, CaseIterable, Hashable, Sendable {
    case start, stop, reset

    /// The button's place in `allCases`.
    public var index: Int {
        switch self {
        case .start: 0
        case .stop: 1
        case .reset: 2
        }
    }
}

/// The Up/Down toggle switch. Down counts down from the preset; Up counts
/// up (to the preset as a target in `timer` mode, without one in
/// `stopwatch` mode).
public enum SwitchPosition: String, CaseIterable, Hashable, Sendable {
    case up, down
}

/// Every physical input line the core listens to.
public enum InputLine: Hashable, Sendable {
    case button(Button)
    case directionSwitch

    public static let all: [InputLine] = Button.allCases.map(InputLine.button) + [.directionSwitch]

    /// The line's place in `all`.
    public var index: Int {
        switch self {
        case .button(let b): b.index
        case .directionSwitch: Button.allCases.count
        }
    }

    /// The line's short name: the button's, or `switch`, as logs, the
    /// `pins.NAME` keys and `tock run --mock-input` spell it.
    public var name: String {
        switch self {
        case .button(let b): b.rawValue
        case .directionSwitch: "switch"
        }
    }

    /// The line with this short name, if any.
    public init?(name: some StringProtocol) {
        if name == "switch" {
            self = .directionSwitch
        } else if let b = Button(rawValue: String(name)) {
            self = .button(b)
        } else {
            return nil
        }
    }
}

/// How a button acts in the current state; decides when its action fires.
///
/// SPEC: where a button has both a short and a long action, the short one
/// fires on release (so a long press never triggers the short action
/// first); where it has only a short action, it fires on press.
public enum PressStyle: Equatable, Sendable {
    /// Only a short action: fire on press.
    case onPress
    /// Short action on release, long action once held past the threshold.
    case shortOrLong
    /// Fire on press, then repeat while held, accelerating (edit steps).
    case repeating
}

/// What a button did, after debouncing and gesture recognition.
public enum ButtonAction: Equatable, Sendable {
    case pressed(Button)
    case longPressed(Button)
    case repeated(Button)
}
