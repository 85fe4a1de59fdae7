import CSystemdBus

#if canImport(Glibc)
    import Glibc
#endif

/// A D-Bus interface as an object exports it: its methods and signals, with the signatures and
/// argument names sd-bus checks calls against and shows in `Introspect`.
public struct BusInterfaceDescription: Hashable, Sendable {
    /// One named argument.
    public struct Argument: Hashable, Sendable {
        /// The argument's name (shown in introspection).
        public var name: String
        /// Its D-Bus type signature, e.g. `d` or `a(dd)`.
        public var signature: String

        /// Creates an argument.
        public init(_ name: String, _ signature: String) {
            self.name = name
            self.signature = signature
        }
    }

    /// A method: its inputs and outputs.
    public struct Method: Hashable, Sendable {
        /// The member name, e.g. `SetDestination`.
        public var name: String
        /// The arguments the caller sends.
        public var inputs: [Argument]
        /// The arguments of the reply.
        public var outputs: [Argument]

        /// Creates a method.
        public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = []) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
        }
    }

    /// A signal and its arguments.
    public struct Signal: Hashable, Sendable {
        /// The member name, e.g. `RouteAdded`.
        public var name: String
        /// Its arguments.
        public var arguments: [Argument]

        /// Creates a signal.
        public init(_ name: String, _ arguments: [Argument]) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// The interface name, e.g. `org.adasis.Horizon1.Route`.
    public var name: String
    /// Its methods.
    public var methods: [Method]
    /// Its signals.
    public var signals: [Signal]

    /// Creates an interface.
    public init(name: String, methods: [Method], signals: [Signal]) {
        self.name = name
        self.methods = methods
        self.signals = signals
    }

    /// The signal named `name`.
    public func signal(_ name: String) -> Signal? { signals.first { $0.name == name } }
}

/// The sd-bus vtable of an interface, with the C strings it points to; freed with it.
final class BusVTable {
    let entries: UnsafeMutablePointer<sd_bus_vtable>
    private var strings: [UnsafeMutablePointer<CChar>] = []
    private let count: Int

    init(_ interface: BusInterfaceDescription, handler: sd_bus_message_handler_t) {
        count = interface.methods.count + interface.signals.count + 2
        entries = .allocate(capacity: count)
        var index = 0
        func add(_ entry: sd_bus_vtable) {
            (entries + index).initialize(to: entry)
            index += 1
        }
        add(csdbus_vtable_start())
        for method in interface.methods {
            add(
                csdbus_vtable_method(
                    keep(method.name), keep(method.inputs.map(\.signature).joined()),
                    keep(method.outputs.map(\.signature).joined()), keepNames(method.inputs + method.outputs),
                    handler))
        }
        for signal in interface.signals {
            add(
                csdbus_vtable_signal(
                    keep(signal.name), keep(signal.arguments.map(\.signature).joined()), keepNames(signal.arguments)))
        }
        add(csdbus_vtable_end())
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        for string in strings { free(string) }
    }

    private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return copy
    }

    /// Each name followed by NUL, as SD_BUS_PARAM writes them.
    private func keepNames(_ arguments: [BusInterfaceDescription.Argument]) -> UnsafeMutablePointer<CChar> {
        let bytes: [CChar] = arguments.flatMap { Array($0.name.utf8CString) } + [0]
        let buffer = malloc(bytes.count)!.assumingMemoryBound(to: CChar.self)
        buffer.initialize(from: bytes, count: bytes.count)
        strings.append(buffer)
        return buffer
    }
}
