import Logging
import Routing

#if canImport(Glibc)
    import Glibc
#endif

/// The bus thread of a ``RouteBusServer``: connects, takes the name, decodes calls into the
/// server's inbox, and sends what the main loop queued.
struct RouteBusWorker {
    let server: RouteBusServer
    let logger: Logger
    private var pending: [Int: BusMethodCall] = [:]
    private var nextID = 1
    private var connectedBefore = false
    private var lastProblem: String?
    /// Calls sd-bus handed over inside `process()`, decoded after it returns.
    private let received = ReceivedCalls()

    /// Collects the calls sd-bus delivers to the exports' handlers, with the interface called.
    private final class ReceivedCalls {
        var calls: [(call: BusMethodCall, objects: Bool)] = []
    }

    init(server: RouteBusServer, logger: Logger) {
        self.server = server
        self.logger = logger
    }

    mutating func run() {
        while !server.stopRequested {
            do {
                let connection = try connect()
                lastProblem = nil
                try serve(connection)
            } catch {
                pending.removeAll()
                let problem = "\(error)"
                if problem != lastProblem {
                    logger.error("D-Bus: \(problem); trying again every \(Int(RouteBusServer.retryInterval)) s")
                }
                lastProblem = problem
                dropQueuedSignals()
                waitForWake(milliseconds: Int32(RouteBusServer.retryInterval * 1000))
            }
        }
    }

    private mutating func connect() throws(BusError) -> BusConnection {
        let settings = server.settings
        let connection = try BusConnection(settings.bus)
        try connection.export(RouteBusInterface.description, at: settings.objectPath) { [received] call in
            received.calls.append((call, false))
        }
        try connection.export(ObjectsBusInterface.description, at: settings.objectPath) { [received] call in
            received.calls.append((call, true))
        }
        try connection.requestName(settings.name)
        if connectedBefore { server.state.withLock { $0.counts.reconnects += 1 } }
        connectedBefore = true
        logger.notice(
            "D-Bus: \(settings.name) owned on the \(settings.bus), \(RouteBusInterface.name) at \(settings.objectPath)"
        )
        return connection
    }

    private mutating func serve(_ connection: BusConnection) throws(BusError) {
        while !server.stopRequested {
            while try connection.process() {}
            let calls = received.calls
            received.calls.removeAll()
            for (call, objects) in calls {
                if objects {
                    enqueue(call, parse: ObjectsBusInterface.request) {
                        $0.objectCalls.append(RouteBusServer.ObjectCall(id: $1, request: $2))
                    }
                } else {
                    enqueue(call, parse: RouteBusInterface.request) {
                        $0.calls.append(RouteBusServer.Call(id: $1, request: $2))
                    }
                }
            }
            try sendQueued(on: connection)
            while try connection.process() {}
            let request = try connection.pollRequest()
            var descriptors = [
                pollfd(fd: request.descriptor, events: request.events, revents: 0),
                pollfd(fd: server.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = request.timeout < 0 ? 1000 : min(request.timeout, 1000)
            _ = poll(&descriptors, 2, timeout)
            if descriptors[1].revents & Int16(POLLIN) != 0 { drainWake() }
        }
    }

    /// Reads `call`'s arguments with `parse` and queues the request for the daemon with `queue`; a
    /// call whose arguments cannot be read, or that names no method of its interface, is answered here.
    private mutating func enqueue<Request>(
        _ call: BusMethodCall, parse: (BusMethodCall) throws -> Request?,
        queue: (inout RouteBusServer.State, Int, Request) -> Void
    ) {
        let request: Request?
        do {
            request = try parse(call)
        } catch {
            try? call.fail(
                name: RouteRequestError(.invalidArguments, "").name,
                message: "the arguments of \(call.member) could not be read: \(error)")
            return
        }
        guard let request else {
            try? call.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member)")
            return
        }
        let id = nextID
        nextID += 1
        pending[id] = call
        server.state.withLock {
            queue(&$0, id, request)
            $0.counts.calls += 1
        }
    }

    /// Answers the pending call `id` with the reply (`write` puts it into the message) or with the
    /// refusal's D-Bus error name and message. A call gone (answered before) is skipped; one that
    /// cannot be answered is logged, unless the connection is lost, which is thrown.
    private mutating func answer<Reply>(
        _ id: Int, _ result: Result<Reply, BusRefusal>,
        write: (Reply, BusMessageWriter) throws(BusError) -> Void
    ) throws(BusError) {
        guard let call = pending.removeValue(forKey: id) else { return }
        do {
            switch result {
            case .success(let reply): try call.reply { (writer) throws(BusError) in try write(reply, writer) }
            case .failure(let refusal): try call.fail(name: refusal.name, message: refusal.message)
            }
        } catch  where error.isDisconnect {
            throw error
        } catch {
            logger.warning("D-Bus: cannot answer \(call.member): \(error)")
        }
    }

    private mutating func sendQueued(on connection: BusConnection) throws(BusError) {
        let outgoing = server.state.withLock { state in
            defer { state.outgoing.removeAll(keepingCapacity: true) }
            return state.outgoing
        }
        for item in outgoing {
            switch item {
            case .answer(let id, let result):
                try answer(id, result.mapError(BusRefusal.init)) { (reply, writer) throws(BusError) in
                    try RouteBusInterface.write(reply, to: writer)
                }
            case .objectAnswer(let id, let result):
                try answer(id, result.mapError(BusRefusal.init)) { (reply, writer) throws(BusError) in
                    try ObjectsBusInterface.write(reply, to: writer)
                }
            case .signal(let event, let time):
                let signal = RouteBusInterface.signal(for: event, time: time)
                do {
                    try connection.emitSignal(
                        path: server.settings.objectPath, interface: RouteBusInterface.name, member: signal.member,
                        arguments: signal.arguments)
                } catch {
                    server.state.withLock { $0.counts.signalsDropped += 1 }
                    if error.isDisconnect { throw error }
                    logger.warning("D-Bus: cannot send \(signal.member): \(error)")
                }
            }
        }
    }

    /// Without a connection, queued signals cannot go anywhere: count them; answers have no caller.
    private func dropQueuedSignals() {
        server.state.withLock { state in
            let signals = state.outgoing.filter { if case .signal = $0 { true } else { false } }.count
            state.counts.signalsDropped += signals
            state.outgoing.removeAll()
        }
    }

    private func waitForWake(milliseconds: Int32) {
        var descriptor = pollfd(fd: server.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, milliseconds) > 0 { drainWake() }
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(server.wakeDescriptor, &bytes, bytes.count) > 0 {}
    }
}

/// A D-Bus error answer to a call: the error's name and its message.
private struct BusRefusal: Error {
    var name: String
    var message: String

    init(_ error: RouteRequestError) { (name, message) = (error.name, error.message) }
    init(_ error: ObjectRequestError) { (name, message) = (error.name, error.message) }
}
