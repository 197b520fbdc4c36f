import Testing
import TockHardware
import TockMock

/// The mock wire is what the TM1637 tests trust, so it must catch what a
/// TM1637 would not accept. These drive it by hand, edge by edge.
@Suite struct MockTwoWireBusTests {
    let bus = MockTwoWireBus()

    /// Start, one byte LSB first with the data set mid-low-phase, ACK, stop.
    private func send(_ byte: UInt8) throws -> Bool {
        try bus.setData(false); bus.wait(.microseconds(5))
        try bus.setClock(false)
        for bit in 0..<8 {
            bus.wait(.microseconds(2)); try bus.setData(byte >> bit & 1 == 1); bus.wait(.microseconds(2))
            try bus.setClock(true); bus.wait(.microseconds(4)); try bus.setClock(false)
        }
        bus.wait(.microseconds(2)); try bus.setData(true); bus.wait(.microseconds(2))
        try bus.setClock(true); bus.wait(.microseconds(4))
        let ack = try !bus.readData()
        try bus.setClock(false)
        bus.wait(.microseconds(2)); try bus.setData(false); bus.wait(.microseconds(2))
        try bus.setClock(true); bus.wait(.microseconds(4))
        try bus.setData(true); bus.wait(.microseconds(4))
        return ack
    }

    @Test func aCleanCommandIsAcknowledgedAndDecoded() throws {
        #expect(try send(0x8C))
        #expect(bus.transactions == [[0x8C]])
        #expect(bus.displayOn && bus.brightness == 4)
        #expect(bus.protocolErrors == [])
    }

    @Test func withoutAChipNothingAcknowledgesOrChanges() throws {
        bus.present = false
        #expect(try !send(0x8C))
        #expect(!bus.displayOn)
        #expect(bus.protocolErrors == [])
    }

    @Test func dataChangingWhileTheClockIsHighMidByteIsAnError() throws {
        try bus.setData(false); bus.wait(.microseconds(5))
        try bus.setClock(false); bus.wait(.microseconds(5))
        try bus.setClock(true); bus.wait(.microseconds(5))
        try bus.setClock(false); bus.wait(.microseconds(5))
        try bus.setClock(true); bus.wait(.microseconds(5))
        try bus.setData(true)  // a stop one bit into a byte
        #expect(bus.protocolErrors.count == 1)
        #expect(bus.protocolErrors.first?.hasSuffix("DIO rose while CLK was high 1 bits into a byte") == true)
    }

    @Test func aClockOutsideAStartStopIsAnError() throws {
        try bus.setClock(false); bus.wait(.microseconds(5))
        try bus.setClock(true)
        #expect(bus.protocolErrors.first?.hasSuffix("CLK pulse outside a start...stop") == true)
    }

    @Test func holdingDIOLowThroughTheACKClockIsAnError() throws {
        try bus.setData(false); bus.wait(.microseconds(5))
        try bus.setClock(false)
        for _ in 0..<9 {
            bus.wait(.microseconds(5)); try bus.setClock(true)
            bus.wait(.microseconds(5)); try bus.setClock(false)
        }
        #expect(bus.protocolErrors.contains { $0.hasSuffix("the driver held DIO low during the ACK clock") })
    }

    @Test func theI2CAndSPIMocksFlagWhatTheChipsWouldNotTake() throws {
        let ht = MockHT16K33()
        try ht.write([0x21, 0x00])
        try ht.write([0x90])
        #expect(ht.protocolErrors == ["command 0x21 followed by 1 more bytes", "unknown command 0x90"])

        let max = MockMAX7219()
        try max.write([0x01, 0x02, 0x03, 0x04])
        try max.write([0x0D, 0x00])
        #expect(max.protocolErrors.count == 2)
    }
}
