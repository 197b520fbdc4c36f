/// The pull resistor a line's request asks the GPIO controller for
/// (`pins.bias`): a button to ground needs a pull-up, one to 3.3 V a
/// pull-down; `disabled` for external resistors, `as-is` to leave the
/// controller's setting alone.
public enum Bias: String, CaseIterable, Sendable {
    case pullUp = "pull-up", pullDown = "pull-down", disabled, asIs = "as-is"
}
