import Testing
@testable import TockMQTT

/// libmosquitto is opened when a client is first made (an `mqtt:` section),
/// never linked: a missing library is an error naming what to install.
@Suite struct MosquittoLibraryTests {
    @Test func theInstalledLibraryLoadsWithEveryFunction() {
        #expect(MqttClient.load("libmosquitto.so.1") == nil)
    }

    @Test func aMissingLibraryIsSaidInWords() {
        let why = MqttClient.load("libmosquitto-missing.so.9")
        #expect(why?.contains("libmosquitto-missing.so.9") == true, "\(why ?? "loaded")")
    }

    /// A library without one of the functions Tock calls is refused
    /// whole (libc has none of them).
    @Test func aLibraryLackingAFunctionIsRefused() {
        let why = MqttClient.load("libc.so.6")
        #expect(why?.contains("libc.so.6 has no mosquitto_") == true, "\(why ?? "loaded")")
    }
}
