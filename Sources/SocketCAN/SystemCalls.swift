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

#if DEBUG
/// Debug-only fault injection (like swift-system's mocking): makes a chosen call fail with a chosen
/// errno, on every `period`-th invocation, so tests can exercise ENOBUFS/ENETDOWN/EINTR paths that a
/// virtual interface never produces. Owned by one socket — no global state.
final class SystemCallFaults: Sendable {
    struct Rule: Sendable {
        var call: SystemCallName
        var errno: Int32
        /// Fail on every `period`-th call (1 = always).
        var period: Int
        /// Stop after this many injected failures (nil = never stop).
        var limit: Int?
    }
    private struct State { var rules: [Rule] = []; var counts: [SystemCallName: Int] = [:]; var injected: [SystemCallName: Int] = [:] }
    private let state = Mutex(State())

    init() {}

    /// Makes `call` fail with `errno` every `period`-th time, at most `limit` times.
    func inject(_ call: SystemCallName, errno: Int32, period: Int = 1, limit: Int? = nil) {
        state.withLock { $0.rules.append(Rule(call: call, errno: errno, period: max(1, period), limit: limit)) }
    }

    /// Debug builds of the command-line tools honour `ADASIS_FAULT_SEND_ENOBUFS_EVERY=N`: every N-th
    /// send fails with ENOBUFS, as a real controller's full TX queue does, so integration tests can
    /// check the drop-and-count behaviour through the real binaries. `nil` when unset or invalid.
    static func fromEnvironment() -> SystemCallFaults? {
        guard let text = getenv("ADASIS_FAULT_SEND_ENOBUFS_EVERY"), let period = Int(String(cString: text)), period > 0 else {
            return nil
        }
        let faults = SystemCallFaults()
        faults.inject(.send, errno: ENOBUFS, period: period)
        return faults
    }

    /// The number of times `call` was attempted (including injected failures).
    func attempts(of call: SystemCallName) -> Int { state.withLock { $0.counts[call, default: 0] } }

    /// The errno to fail this invocation of `call` with, if any.
    func fault(for call: SystemCallName) -> Int32? {
        state.withLock { s in
            s.counts[call, default: 0] += 1
            let n = s.counts[call]!
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
/// ``SocketCANError``. In debug builds it consults the owning socket's fault injector first.
struct SystemCalls: Sendable {
    #if DEBUG
    let faults: SystemCallFaults?
    init(faults: SystemCallFaults? = nil) { self.faults = faults }
    #else
    init() {}
    #endif

    /// Runs `body` (which returns -1 and sets errno on failure) until it does not fail with EINTR.
    func run<R: BinaryInteger>(_ call: SystemCallName, interface: String?,
                               _ body: () -> R) throws(SocketCANError) -> R {
        while true {
            #if DEBUG
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
        #if DEBUG
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
            throw SocketCANError(errno: code == 0 ? ENODEV : code, call: "if_nametoindex", interface: name,
                                 code: .noSuchInterface)
        }
        return Int32(index)
    }
}
