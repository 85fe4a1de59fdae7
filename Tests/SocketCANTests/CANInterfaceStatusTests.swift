import Testing
import SocketCAN

@Suite("interface status")
struct CANInterfaceStatusTests {
    @Test("the loopback interface exists and is up")
    func loopbackIsUp() throws {
        let status = try CANInterfaceStatus(interface: "lo")
        #expect(status.index > 0)
        #expect(status.isUp)
    }

    @Test("a missing interface is .noSuchInterface")
    func missing() {
        do {
            _ = try CANInterfaceStatus(interface: "nosuchcan3")
            Issue.record("should have failed")
        } catch {
            #expect(error.code == .noSuchInterface)
        }
    }
}
