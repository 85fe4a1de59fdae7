import ADASISv2
import SocketCAN

/// What the daemon knows about its CAN bus, and how it reacts to the bus's events: the pure half
/// of the transmitter (the socket itself is a ``FrameSink`` that ``CANTransmitter`` holds).
///
/// A full transmit queue drops the frame (counted, logged once per episode). A down or vanished
/// interface closes the socket; the interface is checked every second and the socket reopened
/// when it is up again. Bus-off is logged and counted; "restarted" after it, and every
/// reopening, asks for a fresh horizon (receivers may have lost frames).
public struct CANBusState: Hashable, Sendable {
    /// What one event means for the daemon beyond its log lines.
    public struct Outcome: Hashable, Sendable {
        /// The bus came back (socket reopened, or the controller restarted after bus-off):
        /// start a fresh horizon.
        public var restartHorizon = false
        /// The socket was opened for the first time (systemd READY=1).
        public var firstOpened = false

        /// Nothing to do.
        public init(restartHorizon: Bool = false, firstOpened: Bool = false) {
            self.restartHorizon = restartHorizon
            self.firstOpened = firstOpened
        }
    }

    /// The interface name.
    public let interface: String
    /// Fault episodes and counts.
    public private(set) var faults = BusFaultEpisodes()
    /// Frames not sent, by type and reason.
    public private(set) var dropped: [DaemonMetrics.DropKey: Int] = [:]
    /// Whether a socket is open.
    public private(set) var isOpen = false
    /// Bus-off events (each episode counted once).
    public var busOffCount: Int { faults.count(.busOff) }

    private var everOpened = false
    private var nextStatusPoll = -Double.infinity
    private var lastOpenError: SocketCANError?

    /// A closed bus on `interface`; the first open attempt is due at once.
    public init(interface: String) {
        self.interface = interface
    }

    /// Whether to try opening the socket at monotonic time `now` (closed, and a second since the
    /// last try); a true answer counts as the try.
    public mutating func openAttemptDue(at now: Double) -> Bool {
        guard !isOpen, now >= nextStatusPoll else { return false }
        nextStatusPoll = now + 1
        return true
    }

    /// Takes a bus event; returns the lines to log and what it means.
    public mutating func apply(_ event: BusEvent) -> (outcome: Outcome, effects: [DaemonEffect]) {
        var outcome = Outcome()
        var effects: [DaemonEffect] = []
        switch event {
        case .opened:
            isOpen = true
            lastOpenError = nil
            outcome.firstOpened = !everOpened
            outcome.restartHorizon = everOpened
            everOpened = true
            if faults.end(.interfaceDown) {
                effects.append(.log(.notice, "CAN interface \(interface) is up again: starting a fresh horizon"))
            } else {
                effects.append(.log(.info, "CAN socket open on \(interface)"))
            }
        case .openFailed(let error):
            if error != lastOpenError && !faults.isActive(.interfaceDown) {
                effects.append(.log(.warning, "CAN interface \(interface) not usable: \(error); checking every second"))
                lastOpenError = error
            }
            if everOpened { faults.begin(.interfaceDown) }
        case .lost(let error):
            effects += lose(error)
        case .controller(let controllerEvent):
            let (restart, lines) = handle(controllerEvent)
            outcome.restartHorizon = restart
            effects += lines
        }
        return (outcome, effects)
    }

    /// Takes the result of sending one frame of message type `type`; returns the lines to log.
    /// Dropped frames are counted by reason; a lost socket counts as the interface going down.
    public mutating func record(_ result: FrameSendResult, type: MessageType) -> [DaemonEffect] {
        switch result {
        case .sent:
            return faults.end(.transmitQueueFull)
                ? [.log(.notice, "CAN transmit queue on \(interface) accepts frames again")] : []
        case .transmitQueueFull:
            drop(type, .transmitQueueFull)
            return faults.begin(.transmitQueueFull)
                ? [.log(.warning, "CAN transmit queue on \(interface) is full: dropping frames until it drains")] : []
        case .interfaceDown:
            drop(type, .interfaceDown)
            return []
        case .lost(let error):
            drop(type, .interfaceDown)
            return lose(error)
        case .unencodable(let problem):
            drop(type, .interfaceDown)
            return [.log(.error, "frame not sent: \(problem); dropped")]
        }
    }

    private mutating func drop(_ type: MessageType, _ reason: DaemonMetrics.DropReason) {
        dropped[.init(type: PipelineSettings.key(of: type), reason: reason), default: 0] += 1
    }

    private mutating func lose(_ error: SocketCANError) -> [DaemonEffect] {
        isOpen = false
        nextStatusPoll = -Double.infinity
        lastOpenError = error
        guard faults.begin(.interfaceDown) else { return [] }
        return [.log(.warning, "CAN interface \(interface) lost: \(error); dropping frames, checking every second")]
    }

    /// Logs and counts one controller event; true when the horizon must restart.
    private mutating func handle(_ event: CANErrorEvent) -> (Bool, [DaemonEffect]) {
        switch event {
        case .busOff:
            return (false, faults.begin(.busOff) ? [.log(.error, "CAN controller on \(interface) is bus-off")] : [])
        case .restarted:
            faults.end(.busOff)
            faults.end(.errorPassive)
            return (true, [.log(.notice, "CAN controller on \(interface) restarted: starting a fresh horizon")])
        case .errorPassive:
            return (
                false,
                faults.begin(.errorPassive) ? [.log(.warning, "CAN controller on \(interface) is error passive")] : []
            )
        case .errorActive:
            return (
                false,
                faults.end(.errorPassive) ? [.log(.notice, "CAN controller on \(interface) is error active again")] : []
            )
        case .controllerOverflow(_, let transmit) where transmit:
            return (
                false,
                faults.begin(.transmitQueueFull)
                    ? [.log(.warning, "CAN controller on \(interface) reports a transmit overflow")] : []
            )
        default:
            return (false, [.log(.debug, "CAN error frame on \(interface): \(event)")])
        }
    }
}
