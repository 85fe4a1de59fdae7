import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif
@testable import SocketCAN
import TestSupport

/// Runs `body` and returns the error code it threw, or nil if it succeeded.
private func errorCode(_ body: () throws -> Void) -> CANInterfaceControlError.Code? {
    do {
        try body()
        return nil
    } catch let error as CANInterfaceControlError {
        return error.code
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

@Suite("CAN interface control on the host")
struct CANInterfaceControlTests {
    @Test("every operation on a missing interface is .noSuchInterface, before libsocketcan is asked")
    func missingInterface() {
        let control = CANInterfaceControl(interface: "nosuchcan7")
        #expect(errorCode { _ = try control.state() } == .noSuchInterface)
        #expect(errorCode { _ = try control.bitrate() } == .noSuchInterface)
        #expect(errorCode { try control.setBitrate(500_000) } == .noSuchInterface)
        #expect(errorCode { try control.restart() } == .noSuchInterface)
        #expect(errorCode { try control.start() } == .noSuchInterface)
        #expect(errorCode { try control.stop() } == .noSuchInterface)
    }

    @Test("an empty or over-long name is .invalidInterfaceName")
    func invalidName() {
        #expect(errorCode { _ = try CANInterfaceControl(interface: "").state() } == .invalidInterfaceName)
        #expect(
            errorCode { _ = try CANInterfaceControl(interface: "can-adas-is-far-too-long").state() }
                == .invalidInterfaceName)
    }

    @Test("the loopback interface has no CAN controller: state and bitrate are .notSupported")
    func loopbackHasNoController() {
        let control = CANInterfaceControl(interface: "lo")
        #expect(errorCode { _ = try control.state() } == .notSupported)
        #expect(errorCode { _ = try control.bitrate() } == .notSupported)
        #expect(errorCode { try control.restart() } == .notSupported)
    }

    @Test("a zero bitrate is rejected without touching the interface")
    func zeroBitrate() {
        #expect(errorCode { try CANInterfaceControl(interface: "lo").setBitrate(0) } == .invalidArgument)
    }

    @Test(
        "errno left by libsocketcan maps to the right code",
        arguments: [
            (Int32(0), CANInterfaceControlError.Code.notSupported), (EOPNOTSUPP, .notSupported),
            (EPERM, .permissionDenied), (EACCES, .permissionDenied), (ENODEV, .noSuchInterface),
            (EBUSY, .interfaceBusy), (EINVAL, .invalidArgument), (ERANGE, .invalidArgument), (EIO, .other),
        ])
    func classification(errno: Int32, code: CANInterfaceControlError.Code) {
        #expect(CANInterfaceControlError.classify(errno: errno) == code)
    }

    @Test("messages say what to do")
    func messages() {
        let denied = CANInterfaceControlError(errno: EPERM, operation: "can_set_bitrate", interface: "can-adas")
        #expect(denied.description.contains("CAP_NET_ADMIN"))
        #expect(denied.description.contains("systemd-networkd"))
        #expect(denied.description.contains("can-adas"))
        let unsupported = CANInterfaceControlError(errno: 0, operation: "can_get_state", interface: "vcan0")
        #expect(unsupported.description.contains("vcan"))
        let busy = CANInterfaceControlError(errno: EBUSY, operation: "can_set_bitrate", interface: "can0")
        #expect(busy.description.contains("ip link set can0 down"))
        let other = CANInterfaceControlError(errno: EIO, operation: "can_do_start", interface: "can0")
        #expect(other.description.contains("errno \(EIO)"))
    }

    @Test("State mirrors the kernel's enum can_state values")
    func stateValues() {
        #expect(CANInterfaceControl.State.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
        #expect(CANInterfaceControl.State(rawValue: 6) == nil)
    }
}

/// The environment variable that tells the guest half of the kernel test which role it plays.
private let guestRoleVariable = "ADASIS_CAN_CONTROL_GUEST"
private let guestRole = ProcessInfo.processInfo.environment[guestRoleVariable]

/// Runs inside the kernel that Tools/vcan-run boots (the host test below starts this test binary
/// there); disabled in a normal test run.
@Suite("CAN interface control inside the vcan kernel", .serialized)
struct CANInterfaceControlGuestTests {
    @Test(
        "as root on vcan0: no state or bitrate, setBitrate not supported, stop/start work",
        .enabled(if: guestRole == "root"))
    func vcanAsRoot() throws {
        #expect(getuid() == 0)
        let control = CANInterfaceControl(interface: "vcan0")
        #expect(errorCode { _ = try control.state() } == .notSupported)
        #expect(errorCode { _ = try control.bitrate() } == .notSupported)
        #expect(errorCode { try control.setBitrate(500_000) } == .notSupported)
        #expect(errorCode { try control.restart() } == .notSupported)
        try control.stop()
        #expect(try CANInterfaceStatus(interface: "vcan0").isUp == false)
        try control.start()
        #expect(try CANInterfaceStatus(interface: "vcan0").isUp == true)
    }

    @Test(
        "as root on vcan0: frames the kernel drops for a full receive queue are counted (SO_RXQ_OVFL)",
        .enabled(if: guestRole == "root"))
    func dropsAreCounted() throws {
        let reader = try CANSocket(interface: "vcan0")
        let sender = try CANSocket(interface: "vcan0")
        let frame = try CANFrame(identifier: #require(CANIdentifier(standard: 0x7FF)), data: [0, 0x11, 0x22, 0x33])
        // The reader reads nothing while 30 000 frames come (its queue holds a few thousand), then
        // its queue; the count comes with the first frame queued after the drops.
        for _ in 0..<30_000 { try sender.send(frame) }
        var received: [ReceivedCANFrame] = []
        while let next = try? reader.receive(timeoutMilliseconds: 500) { received.append(next) }
        try sender.send(frame)
        received.append(try reader.receive(timeoutMilliseconds: 5000))
        let dropped = Int(try #require(received.last?.kernelDropCount, "\(received.count) received, no count"))
        #expect(dropped > 0 && received.count + dropped == 30_001, "\(received.count) received, \(dropped) dropped")
        // Frames queued before the queue filled carry no count; the count never goes down.
        #expect(received.first?.kernelDropCount == nil)
        let counts = received.compactMap(\.kernelDropCount)
        #expect(counts == counts.sorted())
    }

    @Test(
        "unprivileged on vcan0: setBitrate/stop/start are .permissionDenied, reading still says notSupported",
        .enabled(if: guestRole == "unprivileged"))
    func vcanUnprivileged() throws {
        #expect(getuid() == 65534)
        let control = CANInterfaceControl(interface: "vcan0")
        #expect(errorCode { try control.setBitrate(500_000) } == .permissionDenied)
        #expect(errorCode { try control.stop() } == .permissionDenied)
        #expect(errorCode { try control.start() } == .permissionDenied)
        #expect(errorCode { _ = try control.state() } == .notSupported)
        #expect(try CANInterfaceStatus(interface: "vcan0").isUp == true)
    }
}

@Suite("CAN interface control on a real kernel", .serialized)
struct CANInterfaceControlKernelTests {
    @Test(
        "vcan0 in a real kernel, as root and as nobody (runs the guest suite via Tools/vcan-run)",
        .enabled(if: guestRole == nil))
    func vcanKernel() throws {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let run = "'\(testBinary)' --testing-library swift-testing --filter CANInterfaceControlGuestTests 2>&1"
        let script = """
            \(guestRoleVariable)=root \(run); echo "root-status=$?"
            \(guestRoleVariable)=unprivileged setpriv --reuid=65534 --regid=65534 --clear-groups \(run); echo "user-status=$?"
            """
        let (status, stdout, stderr) = try runProcess(
            Repository.url("Tools/vcan-run"),
            ["--timeout", "240", "bash", "-c", script])
        try #require(status == 0, "vcan-run failed: \(stderr)")
        #expect(stdout.contains("root-status=0"), "\(stdout)\n\(stderr)")
        #expect(stdout.contains("user-status=0"), "\(stdout)\n\(stderr)")
        // Each role must have run (not skipped) its own guest test, and it must have passed.
        let parts = stdout.components(separatedBy: "root-status=")
        try #require(parts.count == 2, "\(stdout)\n\(stderr)")
        #expect(
            parts[0].contains(
                "as root on vcan0: no state or bitrate, setBitrate not supported, stop/start work\" passed"),
            "\(parts[0])")
        #expect(
            parts[0].contains(
                "as root on vcan0: frames the kernel drops for a full receive queue are counted (SO_RXQ_OVFL)\" passed"),
            "\(parts[0])")
        #expect(
            parts[1].contains(
                "unprivileged on vcan0: setBitrate/stop/start are .permissionDenied, reading still says notSupported\" passed"
            ),
            "\(parts[1])")
    }
}
