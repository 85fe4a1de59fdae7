#if canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// The system calls the SocketCAN module makes; every one goes through ``SystemCalls/run(_:interface:_:)``.
enum SystemCallName: String, Hashable, Sendable {
    case socket, bind, setsockopt, send, write, recvmsg, poll, close
    case interfaceFlags = "ioctl(SIOCGIFFLAGS)"
    case ifNameToIndex = "if_nametoindex"
}

#if SOCKETCAN_FAULT_INJECTION
    /// Fault injection for tests (like swift-system's mocking): makes a chosen call fail with a chosen
    /// errno, on every `period`-th invocation, so tests can exercise ENOBUFS/ENETDOWN/EINTR paths that a
    /// virtual interface never produces. Owned by one socket — no global state, nothing read from the
    /// environment. Compiled only with `-D SOCKETCAN_FAULT_INJECTION` (Package.swift sets it for debug
    /// builds); tests reach it with `@testable import SocketCAN` through ``CANSocket/init(adopting:interface:calls:)``
    /// or ``CANSocket/init(interface:calls:)``.
    final class SystemCallFaults: Sendable {
        struct Rule: Sendable {
            var call: SystemCallName
            var errno: Int32
            /// Fail on every `period`-th call (1 = always).
            var period: Int
            /// Stop after this many injected failures (nil = never stop).
            var limit: Int?
        }
        private struct State {
            var rules: [Rule] = []; var counts: [SystemCallName: Int] = [:]; var injected: [SystemCallName: Int] = [:]
        }
        private let state = Mutex(State())

        init() {}

        /// Makes `call` fail with `errno` every `period`-th time, at most `limit` times.
        func inject(_ call: SystemCallName, errno: Int32, period: Int = 1, limit: Int? = nil) {
            state.withLock { $0.rules.append(Rule(call: call, errno: errno, period: max(1, period), limit: limit)) }
        }

        /// The number of times `call` was attempted (including injected failures).
        func attempts(of call: SystemCallName) -> Int { state.withLock { $0.counts[call, default: 0] } }

        /// The errno to fail this invocation of `call` with, if any.
        func fault(for call: SystemCallName) -> Int32? {
            state.withLock { s in
                let n = s.counts[call, default: 0] + 1
                s.counts[call] = n
                for rule in s.rules where rule.call == call && n % rule.period == 0 {
                    if let limit = rule.limit, s.injected[call, default: 0] >= limit { continue }
                    s.injected[call, default: 0] += 1
                    return rule.errno
                }
                return nil
            }
        }
    }
#endif

/// The single gateway to the kernel: runs a call, retries EINTR, and turns -1/errno into a
/// ``SocketCANError``. With `SOCKETCAN_FAULT_INJECTION` it consults the owning socket's fault injector first.
struct SystemCalls: Sendable {
    #if SOCKETCAN_FAULT_INJECTION
        let faults: SystemCallFaults?
        init(faults: SystemCallFaults? = nil) { self.faults = faults }
    #else
        init() {}
    #endif

    /// Runs `body` (which returns -1 and sets errno on failure) until it does not fail with EINTR.
    func run<R: BinaryInteger>(
        _ call: SystemCallName, interface: String?,
        _ body: () -> R
    ) throws(SocketCANError) -> R {
        while true {
            #if SOCKETCAN_FAULT_INJECTION
                if let injected = faults?.fault(for: call) {
                    if injected == EINTR { continue }
                    throw SocketCANError(errno: injected, call: call.rawValue, interface: interface)
                }
            #endif
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SocketCANError(errno: code, call: call.rawValue, interface: interface)
        }
    }

    /// `if_nametoindex`, which reports failure as 0 rather than -1.
    func interfaceIndex(_ name: String) throws(SocketCANError) -> Int32 {
        #if SOCKETCAN_FAULT_INJECTION
            if let injected = faults?.fault(for: .ifNameToIndex) {
                throw SocketCANError(errno: injected, call: "if_nametoindex", interface: name)
            }
        #endif
        guard !name.isEmpty, name.utf8.count < Int(IF_NAMESIZE) else {
            throw SocketCANError(errno: EINVAL, call: "if_nametoindex", interface: name, code: .invalidInterfaceName)
        }
        let index = if_nametoindex(name)
        guard index != 0 else {
            let code = Glibc.errno
            throw SocketCANError(
                errno: code == 0 ? ENODEV : code, call: "if_nametoindex", interface: name,
                code: .noSuchInterface)
        }
        return Int32(index)
    }
}
