import Foundation
import Logging
import Routing
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Serves ``RouteBusInterface`` on a message bus from a thread of its own, and hands the calls to
/// the daemon's main loop the way ``GNSSSources/FixInbox`` hands over fixes: the loop collects
/// the requests, answers each, and queues the route signals; the bus thread sends them. The bus
/// thread never touches the daemon's state, and sd-bus is used by that thread only.
///
/// When the bus cannot be reached or the name not taken, the thread logs why and tries again
/// every ``retryInterval`` seconds; when the connection drops, calls not yet answered are lost
/// (their callers get the bus's NoReply) and it reconnects.
public final class RouteBusServer: Sendable {
    /// Where to serve.
    public struct Settings: Hashable, Sendable {
        /// The bus.
        public var bus: BusEndpoint
        /// The well-known name to own, e.g. `org.adasis.Horizon1`.
        public var name: String
        /// The object path, e.g. `/org/adasis/Horizon1`.
        public var objectPath: String

        /// Creates settings.
        public init(bus: BusEndpoint, name: String, objectPath: String) {
            self.bus = bus
            self.name = name
            self.objectPath = objectPath
        }
    }

    /// A call waiting for the main loop.
    public struct Call: Hashable, Sendable {
        /// Identifies the call in ``answer(_:with:)``.
        public var id: Int
        /// What the caller asked for.
        public var request: RouteRequest
    }

    /// A call of the custom-object interface (``ObjectsBusInterface``) waiting for the main loop.
    public struct ObjectCall: Hashable, Sendable {
        /// Identifies the call in ``answerObjectCall(_:with:)``.
        public var id: Int
        /// What the caller asked for.
        public var request: ObjectRequest
    }

    /// Counts since the server started.
    public struct Counts: Hashable, Sendable {
        /// Successful connections (name owned) after the first.
        public var reconnects = 0
        /// Calls received on the interface.
        public var calls = 0
        /// Signals that could not be sent (no connection, or sending failed).
        public var signalsDropped = 0
    }

    enum Outgoing: Sendable {
        case answer(Int, Result<RouteReply, RouteRequestError>)
        case objectAnswer(Int, Result<ObjectReply, ObjectRequestError>)
        case signal(RouteEvent, time: Double)
    }

    struct State {
        var calls: [Call] = []
        var objectCalls: [ObjectCall] = []
        var outgoing: [Outgoing] = []
        var stopRequested = false
        var counts = Counts()
    }

    /// Seconds between attempts to reach the bus.
    public static let retryInterval = 5.0

    let state = Mutex(State())
    /// A pipe the main loop writes a byte to when it queued something for the bus thread, which
    /// polls its read end (``wakeDescriptor``) beside the bus.
    let wakeDescriptor: Int32
    private let wakeWriteDescriptor: Int32
    /// The settings served.
    public let settings: Settings

    private init(settings: Settings) {
        self.settings = settings
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }  // without a pipe the bus thread still polls each second
        wakeDescriptor = ends[0]
        wakeWriteDescriptor = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Starts the bus thread; stop it with ``requestStop()``.
    public static func start(_ settings: Settings, logger: Logger) -> RouteBusServer {
        let server = RouteBusServer(settings: settings)
        let thread = Thread {
            var worker = RouteBusWorker(server: server, logger: logger)
            worker.run()
        }
        thread.name = "adasis-dbus"
        thread.start()
        return server
    }

    /// Takes the calls that arrived, oldest first.
    public func collect() -> [Call] {
        state.withLock { state in
            defer { state.calls.removeAll(keepingCapacity: true) }
            return state.calls
        }
    }

    /// Answers call `id`: the reply, or the error the caller gets.
    public func answer(_ id: Int, with result: Result<RouteReply, RouteRequestError>) {
        queue(.answer(id, result))
    }

    /// Takes the custom-object calls that arrived, oldest first.
    public func collectObjectCalls() -> [ObjectCall] {
        state.withLock { state in
            defer { state.objectCalls.removeAll(keepingCapacity: true) }
            return state.objectCalls
        }
    }

    /// Answers custom-object call `id`: the reply, or the error the caller gets.
    public func answerObjectCall(_ id: Int, with result: Result<ObjectReply, ObjectRequestError>) {
        queue(.objectAnswer(id, result))
    }

    /// Sends `event` as its signal (`time`: the session time the event happened at).
    public func emit(_ event: RouteEvent, time: Double) {
        queue(.signal(event, time: time))
    }

    /// Counts so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Asks the bus thread to stop (it releases the name and closes the connection).
    public func requestStop() {
        state.withLock { $0.stopRequested = true }
        wake()
    }

    var stopRequested: Bool { state.withLock { $0.stopRequested } }

    private func queue(_ item: Outgoing) {
        state.withLock { $0.outgoing.append(item) }
        wake()
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeWriteDescriptor, &one, 1)  // a full pipe already wakes the thread
    }
}
