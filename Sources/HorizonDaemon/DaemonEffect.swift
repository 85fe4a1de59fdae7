import ADASISProvider
import DaemonConfiguration
import Logging
import Routing
import SocketCAN

/// Something that happened on the CAN bus, as the run loop reports it to the core.
public enum BusEvent: Hashable, Sendable {
    /// A socket was opened on the interface.
    case opened
    /// Opening failed (the interface is down, missing or not usable).
    case openFailed(SocketCANError)
    /// The open socket failed and was closed.
    case lost(SocketCANError)
    /// The controller reported an error event (bus-off, restarted, error passive, …).
    case controller(CANErrorEvent)
}

/// What the core asks the run loop to do; the core itself does no I/O.
public enum DaemonEffect: Hashable, Sendable {
    /// Log `message` at `level`.
    case log(Logger.Level, String)
    /// Send these frames, in order, and report each result back with ``DaemonCore/record(_:of:)``.
    case send([ProviderFrame])
    /// Tell systemd (`READY=1`, `WATCHDOG=1`, `STOPPING=1`).
    case notify(String)
    /// Write this metrics snapshot to the file at `path`.
    case writeMetrics(DaemonMetrics, path: String)
    /// Log from now on at this level.
    case setLogLevel(Logger.Level)
    /// Close the CAN socket and use `interface` from now on.
    case switchCANInterface(String)
    /// Stop the GNSS reader and start one on this source.
    case restartGNSS(DaemonConfiguration.GNSSSource)
    /// Tell the route interface's listeners about `event` (a D-Bus signal), which happened at
    /// session time `time` (receiver seconds).
    case route(RouteEvent, time: Double)
}
