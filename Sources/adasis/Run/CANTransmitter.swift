import ADASISProvider
import ADASISv2
import Logging
import SocketCAN

/// The daemon's side of the CAN bus: opens the socket, sends each tick's frames without ever
/// blocking, listens for the controller's error frames, and rides out faults.
///
/// A full transmit queue drops the frame (counted, logged once per episode). A down or vanished
/// interface closes the socket; its status is polled every second and the socket reopened when
/// it is up again. Bus-off is logged and counted; "restarted" after it, and every reopening, asks
/// the caller for a fresh horizon (receivers may have lost frames).
final class CANTransmitter {
    /// What happened during one call that the daemon must act on.
    struct Outcome: Hashable, Sendable {
        /// The bus came back (socket reopened, or the controller restarted after bus-off):
        /// start a fresh horizon.
        var restartHorizon = false
        /// The socket was opened for the first time (systemd READY=1).
        var firstOpened = false
    }

    /// The interface name.
    let interface: String
    /// Fault episodes and counts.
    private(set) var faults = BusFaultEpisodes()
    /// Bus-off events (each episode counted once).
    var busOffCount: Int { faults.count(.busOff) }
    /// Frames not sent, by type and reason.
    private(set) var dropped: [DaemonMetrics.DropKey: Int] = [:]
    /// Whether the socket is open.
    var isOpen: Bool { socket != nil }

    private var socket: OpenSocket?
    private var everOpened = false
    private var nextStatusPoll = -Double.infinity
    private var lastOpenError: SocketCANError?
    /// Where faults are logged.
    var logger: Logger

    private final class OpenSocket {
        let socket: CANSocket
        init(_ socket: consuming CANSocket) { self.socket = socket }
    }

    /// A transmitter for `interface`; nothing is opened before ``maintain(at:)``.
    init(interface: String, logger: Logger) {
        self.interface = interface
        self.logger = logger
    }

    /// While the socket is closed, checks the interface once a second and opens it when it is up;
    /// while open, reads pending error frames. Call once per tick.
    func maintain(at now: Double) -> Outcome {
        var outcome = Outcome()
        if socket == nil {
            guard now >= nextStatusPoll else { return outcome }
            nextStatusPoll = now + 1
            if open() {
                outcome.firstOpened = !everOpened
                outcome.restartHorizon = everOpened
                everOpened = true
            }
            return outcome
        }
        for _ in 0..<64 {
            guard let open = socket else { break }
            do {
                let received = try open.socket.receive(timeoutMilliseconds: 0)
                for event in CANErrorEvent.decode(received.frame) where handle(event) { outcome.restartHorizon = true }
            } catch where error.code == .timedOut {
                break
            } catch {
                lost(error)
                break
            }
        }
        return outcome
    }

    /// Sends `frames` in order without blocking; frames that cannot go are reported to `provider`
    /// as dropped and counted by reason.
    func send(_ frames: [ProviderFrame], provider: ADASISProvider) {
        for frame in frames {
            guard let open = socket else {
                drop(frame, .interfaceDown, provider: provider)
                continue
            }
            guard let canFrame = frame.canFrame else {
                logger.error("frame identifier \(frame.identifier) out of range; dropped")
                drop(frame, .interfaceDown, provider: provider)
                continue
            }
            do throws(SocketCANError) {
                try open.socket.sendNonBlocking(canFrame)
                if faults.end(.transmitQueueFull) {
                    logger.notice("CAN transmit queue on \(interface) accepts frames again")
                }
            } catch where error.code == .transmitQueueFull {
                if faults.begin(.transmitQueueFull) {
                    logger.warning("CAN transmit queue on \(interface) is full: dropping frames until it drains")
                }
                drop(frame, .transmitQueueFull, provider: provider)
            } catch {
                lost(error)
                drop(frame, .interfaceDown, provider: provider)
            }
        }
    }

    /// Closes the socket (on shutdown or before switching interfaces).
    func close() { socket = nil }

    private func drop(_ frame: ProviderFrame, _ reason: DaemonMetrics.DropReason, provider: ADASISProvider) {
        provider.senderDropped(frame)
        dropped[.init(type: PipelineSettings.key(of: frame.message.type), reason: reason), default: 0] += 1
    }

    private func open() -> Bool {
        do throws(SocketCANError) {
            let status = try CANInterfaceStatus(interface: interface)
            guard status.isUp else {
                throw SocketCANError(errno: 0, call: "status", interface: interface, code: .networkDown)
            }
            let opened = try CANSocket(interface: interface)
            try opened.setFilters([])  // receive no data frames, only the error frames below
            try opened.subscribeToErrorFrames()
            socket = OpenSocket(opened)
            lastOpenError = nil
            if faults.end(.interfaceDown) {
                logger.notice("CAN interface \(interface) is up again: starting a fresh horizon")
            } else {
                logger.info("CAN socket open on \(interface)")
            }
            return true
        } catch {
            if error != lastOpenError && !faults.isActive(.interfaceDown) {
                logger.warning("CAN interface \(interface) not usable: \(error); checking every second")
                lastOpenError = error
            }
            if everOpened { faults.begin(.interfaceDown) }
            return false
        }
    }

    private func lost(_ error: SocketCANError) {
        socket = nil
        nextStatusPoll = -Double.infinity
        if faults.begin(.interfaceDown) {
            logger.warning("CAN interface \(interface) lost: \(error); dropping frames, checking every second")
        }
        lastOpenError = error
    }

    /// Logs and counts one error event; true when the horizon must restart.
    private func handle(_ event: CANErrorEvent) -> Bool {
        switch event {
        case .busOff:
            if faults.begin(.busOff) { logger.error("CAN controller on \(interface) is bus-off") }
        case .restarted:
            faults.end(.busOff)
            faults.end(.errorPassive)
            logger.notice("CAN controller on \(interface) restarted: starting a fresh horizon")
            return true
        case .errorPassive:
            if faults.begin(.errorPassive) { logger.warning("CAN controller on \(interface) is error passive") }
        case .errorActive:
            if faults.end(.errorPassive) { logger.notice("CAN controller on \(interface) is error active again") }
        case .controllerOverflow(_, let transmit) where transmit:
            if faults.begin(.transmitQueueFull) { logger.warning("CAN controller on \(interface) reports a transmit overflow") }
        default:
            logger.debug("CAN error frame on \(interface): \(event)")
        }
        return false
    }
}
