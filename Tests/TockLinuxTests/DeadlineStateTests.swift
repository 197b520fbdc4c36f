import Testing
@testable import TockLinux

struct DeadlineStateTests {
    @Test func armingCostsASyscallOnlyWhenTheKernelDeadlineChanges() {
        var state = DeadlineState.disarmed
        #expect(state.transition(to: nil) == .none)
        #expect(state.transition(to: 100) == .arm(100))
        #expect(state.transition(to: 100) == .none)
        #expect(state.transition(to: 50) == .arm(50))
        #expect(state.transition(to: nil) == .disarm)
        #expect(state == .disarmed)
    }

    @Test func aDeliveredDeadlineIsNotArmedAgain() {
        var state = DeadlineState.disarmed
        _ = state.transition(to: 100)
        state.expired()
        #expect(state == .delivered(100))
        #expect(state.transition(to: 100) == .none)
        // The one-shot timer disarmed itself on expiry: no syscall to clear.
        #expect(state.transition(to: nil) == .none)
        #expect(state == .disarmed)
        #expect(state.transition(to: 100) == .arm(100))
    }

    @Test func aNewDeadlineAfterDeliveryIsArmed() {
        var state = DeadlineState.armed(100)
        state.expired()
        #expect(state.transition(to: 200) == .arm(200))
        #expect(state == .armed(200))
    }

    @Test func expiryWithoutAnArmedDeadlineChangesNothing() {
        var state = DeadlineState.disarmed
        state.expired()
        #expect(state == .disarmed)
    }
}
