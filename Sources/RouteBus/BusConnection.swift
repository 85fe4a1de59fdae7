import CSystemdBus

#if canImport(Glibc)
    import Glibc
#endif

/// Which message bus to connect to.
public enum BusEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The system bus (`/run/dbus/system_bus_socket`), as deployed.
    case system
    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`), for development.
    case session
    /// The bus at a D-Bus address (`unix:path=/run/test/bus`): a private bus daemon.
    case address(String)

    public var description: String {
        switch self {
        case .system: return "system bus"
        case .session: return "session bus"
        case .address(let address): return "bus at \(address)"
        }
    }
}

/// One connection to a D-Bus message bus through sd-bus: exports objects, owns names, sends
/// signals and is driven by ``process()`` when its file descriptor is ready.
///
/// Not thread-safe (sd-bus is not): one thread uses it.
public final class BusConnection {
    let bus: OpaquePointer
    private var exports: [Export] = []

    /// A method handler and the vtable that leads to it.
    private final class Export {
        let handler: (BusMethodCall) -> Void
        var vtable: BusVTable?

        init(handler: @escaping (BusMethodCall) -> Void) { self.handler = handler }
    }

    /// Connects to the bus at `endpoint`.
    public init(_ endpoint: BusEndpoint) throws(BusError) {
        var bus: OpaquePointer?
        switch endpoint {
        case .system: try check(sd_bus_open_system(&bus), "sd_bus_open_system")
        case .session: try check(sd_bus_open_user(&bus), "sd_bus_open_user")
        case .address(let address):
            try check(sd_bus_new(&bus), "sd_bus_new")
            do {
                try check(sd_bus_set_address(bus, address), "sd_bus_set_address(\(address))")
                try check(sd_bus_set_bus_client(bus, 1), "sd_bus_set_bus_client")
                try check(sd_bus_start(bus), "sd_bus_start(\(address))")
            } catch {
                sd_bus_unref(bus)
                throw error
            }
        }
        self.bus = bus!
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    /// Exports `interface` on the object at `path`; every call of one of its methods goes to
    /// `handler`, which answers it (at once or later) with ``BusMethodCall/reply(_:)`` or
    /// ``BusMethodCall/fail(name:message:)``. Calls with the wrong signature are refused by sd-bus
    /// (`org.freedesktop.DBus.Error.InvalidArgs`) before they reach `handler`.
    public func export(
        _ interface: BusInterfaceDescription, at path: String, handler: @escaping (BusMethodCall) -> Void
    ) throws(BusError) {
        let export = Export(handler: handler)
        let trampoline: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return -EINVAL }
            let export = Unmanaged<Export>.fromOpaque(userdata).takeUnretainedValue()
            export.handler(BusMethodCall(message))
            return 1
        }
        let vtable = BusVTable(interface, handler: trampoline)
        export.vtable = vtable
        try check(
            sd_bus_add_object_vtable(
                bus, nil, path, interface.name, vtable.entries, Unmanaged.passUnretained(export).toOpaque()
            ),
            "sd_bus_add_object_vtable(\(path), \(interface.name))")
        exports.append(export)
    }

    /// Takes the well-known `name` (fails when another connection owns it or the policy forbids).
    public func requestName(_ name: String) throws(BusError) {
        try check(sd_bus_request_name(bus, name, 0), "sd_bus_request_name(\(name))")
    }

    /// The unique name the bus gave this connection (`:1.42`).
    public var uniqueName: String? {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Handles what is pending (incoming calls, outgoing messages); returns whether there was
    /// something, so the caller repeats until it returns `false`.
    public func process() throws(BusError) -> Bool {
        try check(sd_bus_process(bus, nil), "sd_bus_process") > 0
    }

    /// The descriptor to poll and the events to poll it for, and how long at most to wait
    /// (milliseconds; `-1`: no deadline) before calling ``process()`` again.
    public func pollRequest() throws(BusError) -> (descriptor: Int32, events: Int16, timeout: Int32) {
        let descriptor = try check(sd_bus_get_fd(bus), "sd_bus_get_fd")
        let events = try check(sd_bus_get_events(bus), "sd_bus_get_events")
        var deadline: UInt64 = 0
        try check(sd_bus_get_timeout(bus, &deadline), "sd_bus_get_timeout")
        guard deadline != UInt64.max else { return (descriptor, Int16(events), -1) }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let wait = deadline > nowMicroseconds ? (deadline - nowMicroseconds + 999) / 1000 : 0
        return (descriptor, Int16(events), Int32(min(wait, UInt64(Int32.max))))
    }

    /// Sends the signal `member` of `interface` from the object at `path`, its arguments written
    /// by `arguments`.
    public func emitSignal(
        path: String, interface: String, member: String, arguments: (BusMessageWriter) throws(BusError) -> Void
    ) throws(BusError) {
        var message: OpaquePointer?
        try check(
            sd_bus_message_new_signal(bus, &message, path, interface, member), "sd_bus_message_new_signal(\(member))")
        defer { sd_bus_message_unref(message) }
        try arguments(BusMessageWriter(message: message!))
        try check(sd_bus_send(bus, message, nil), "sd_bus_send(\(member))")
    }
}

/// A method call received on an exported object: its arguments, and the way to answer it, now or
/// later (it holds a reference to the message until it is answered or dropped).
public final class BusMethodCall {
    let message: OpaquePointer
    private var answered = false

    init(_ message: OpaquePointer) {
        self.message = sd_bus_message_ref(message)
    }

    deinit {
        sd_bus_message_unref(message)
    }

    /// Reads the call's arguments.
    public var arguments: BusMessageReader { BusMessageReader(message: message) }

    /// The method's name.
    public var member: String { arguments.member }

    /// Sends the reply, its arguments written by `arguments`.
    public func reply(_ arguments: (BusMessageWriter) throws(BusError) -> Void = { _ in }) throws(BusError) {
        guard !answered else { return }
        var reply: OpaquePointer?
        try check(sd_bus_message_new_method_return(message, &reply), "sd_bus_message_new_method_return")
        defer { sd_bus_message_unref(reply) }
        try arguments(BusMessageWriter(message: reply!))
        try check(sd_bus_send(nil, reply, nil), "sd_bus_send(reply to \(member))")
        answered = true
    }

    /// Sends the D-Bus error `name` with `message` as the reply.
    public func fail(name: String, message text: String) throws(BusError) {
        guard !answered else { return }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        sd_bus_error_set(&error, name, text)
        try check(sd_bus_reply_method_error(message, &error), "sd_bus_reply_method_error(\(name))")
        answered = true
    }
}
