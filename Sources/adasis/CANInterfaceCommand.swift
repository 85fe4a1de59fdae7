import ArgumentParser
import SocketCAN

/// `adasis can-interface IF [--bitrate N] [--restart]`: the controller through libsocketcan.
struct CANInterfaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-interface",
        abstract: "Show a CAN interface's controller state and bitrate; set the bitrate or restart it.",
        discussion: """
            Reads the controller state (error active / warning / passive, bus-off, stopped) and \
            the bitrate through libsocketcan. Changing them needs CAP_NET_ADMIN, and the bitrate can \
            only change while the interface is down: on a head unit let systemd-networkd do it \
            (udev/80-can-adas.network) and run adasis unprivileged. Virtual interfaces (vcan) have \
            no controller: state and bitrate are reported as not supported.
            """)

    @Argument(help: "The CAN interface, e.g. can0.")
    var interface: String

    @Option(help: "Set the bitrate in bit/s (the interface is stopped, set and started again).")
    var bitrate: UInt32?

    @Flag(help: "Restart a controller that is bus-off.")
    var restart = false

    func run() throws {
        let control = CANInterfaceControl(interface: interface)
        do {
            if let bitrate {
                try control.stop()
                try control.setBitrate(bitrate)
                try control.start()
                print("\(interface): bitrate set to \(bitrate) bit/s")
            }
            if restart {
                try control.restart()
                print("\(interface): controller restarted")
            }
            let state: String
            do { state = "\(try control.state())" } catch  where error.code == .notSupported {
                state = "not supported (no CAN controller)"
            }
            let rate: String
            do { rate = "\(try control.bitrate()) bit/s" } catch  where error.code == .notSupported {
                rate = "not supported (no CAN controller)"
            }
            print("\(interface): state \(state), bitrate \(rate)")
        } catch {
            printToStandardError("adasis can-interface: \(error)")
            throw ExitCode.failure
        }
    }
}
