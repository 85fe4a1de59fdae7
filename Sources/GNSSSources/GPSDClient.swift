#if canImport(Glibc)
    import Glibc
#endif
import GNSS
import Logging

/// A blocking client for gpsd's JSON watcher stream that turns TPV reports into ``GNSSFix``es and
/// survives gpsd going away.
///
/// Each ``nextFix()`` call does one bounded step and returns a fix or nil, so a daemon loop can
/// keep its watchdog fed: when connected, one receive (at most ``Configuration/receiveTimeout``);
/// when disconnected, at most one receive-timeout slice of the reconnect wait, then one connect
/// attempt and, if it succeeds, one receive. Reconnect waits follow ``GPSDReconnectBackoff``
/// (1 s doubling to 30 s); a lost connection that had been delivering data is retried at once.
/// The waiting is done by the injected `sleep`, so tests can record it instead.
public struct GPSDClient: ~Copyable {
    /// Where gpsd is and how long to wait.
    public struct Configuration: Hashable, Sendable {
        /// The gpsd host name or address.
        public var host: String
        /// The gpsd TCP port.
        public var port: UInt16
        /// The longest one receive, connect or wait slice blocks.
        public var receiveTimeout: Duration
        /// The reconnect schedule.
        public var backoff: GPSDReconnectBackoff

        /// Creates a configuration; defaults are gpsd's own (127.0.0.1:2947).
        public init(
            host: String = "127.0.0.1", port: UInt16 = 2947, receiveTimeout: Duration = .seconds(1),
            backoff: GPSDReconnectBackoff = GPSDReconnectBackoff()
        ) {
            self.host = host
            self.port = port
            self.receiveTimeout = receiveTimeout
            self.backoff = backoff
        }
    }

    /// The command that asks gpsd to stream JSON reports.
    public static let watchCommand = "?WATCH={\"enable\":true,\"json\":true}\n"

    /// The configuration in use.
    public let configuration: Configuration
    /// The line decoder with its counts (lines, malformed lines, ignored classes, fixes).
    public private(set) var decoder = GPSDStreamDecoder()
    /// The reconnect schedule with its count of consecutive failures.
    public private(set) var backoff: GPSDReconnectBackoff
    /// Successful connections so far.
    public private(set) var connections = 0
    /// Connect attempts that failed.
    public private(set) var failedAttempts = 0
    /// Connections gpsd closed or that broke.
    public private(set) var connectionsLost = 0
    /// The most recent connection problem, for status output.
    public private(set) var lastError: GPSDClientError?

    /// Successful connections after the first one.
    public var reconnects: Int { max(0, connections - 1) }
    /// Whether a connection to gpsd is open.
    public var isConnected: Bool { descriptor != nil }

    private var descriptor: Int32?
    private var linesAtConnect = 0
    private var pendingWait: Duration = .zero
    private var queued: [GNSSFix] = []
    private var buffer = [UInt8](repeating: 0, count: 16_384)
    private let logger: Logger
    private let sleep: @Sendable (Duration) -> Void

    /// Creates a client; it connects on the first ``nextFix()``.
    /// - Parameters:
    ///   - logger: receives connection events (connected, lost, refused).
    ///   - sleep: waits for a duration; the default blocks the thread.
    /// - Throws: `.invalidConfiguration` for an empty host, port 0 or a non-positive timeout.
    public init(
        configuration: Configuration = Configuration(), logger: Logger = Logger(label: "adasis.gnss.gpsd"),
        sleep: @escaping @Sendable (Duration) -> Void = { MonotonicClock.sleep($0) }
    ) throws(GPSDClientError) {
        let problem: String? =
            configuration.host.isEmpty
            ? "the host is empty"
            : configuration.port == 0
                ? "port 0"
                : configuration.receiveTimeout <= .zero ? "receive timeout \(configuration.receiveTimeout)" : nil
        if let problem {
            throw GPSDClientError(
                code: .invalidConfiguration, errno: 0, host: configuration.host,
                port: configuration.port, detail: problem)
        }
        self.configuration = configuration
        self.backoff = configuration.backoff
        self.logger = logger
        self.sleep = sleep
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Does one bounded step (see the type's description) and returns the next fix, or nil if
    /// none arrived during it.
    public mutating func nextFix() -> GNSSFix? {
        if !queued.isEmpty { return queued.removeFirst() }
        if descriptor == nil {
            if pendingWait > .zero {
                let slice = min(pendingWait, configuration.receiveTimeout)
                sleep(slice)
                pendingWait -= slice
                if pendingWait > .zero { return nil }
            }
            guard connect() else { return nil }
        }
        guard let descriptor else { return nil }
        switch GPSDSocket.receive(descriptor, into: &buffer) {
        case .bytes(let count):
            queued.append(contentsOf: decoder.feed(buffer[..<count]))
            if decoder.lines > linesAtConnect { backoff.reset() }
        case .timedOut:
            break
        case .closed:
            connectionLost(
                GPSDClientError(
                    code: .connectionLost, errno: 0, host: configuration.host,
                    port: configuration.port, detail: "gpsd closed the connection"))
        case .failed(let code):
            connectionLost(GPSDClientError(errno: code, host: configuration.host, port: configuration.port))
        }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    /// Closes the connection; the next ``nextFix()`` reconnects at once.
    public mutating func disconnect() {
        if let descriptor { close(descriptor) }
        descriptor = nil
        decoder.discardPartialLine()
        pendingWait = .zero
    }

    private mutating func connect() -> Bool {
        let host = configuration.host, port = configuration.port
        do throws(GPSDClientError) {
            let fd = try GPSDSocket.connect(host: host, port: port, timeout: configuration.receiveTimeout)
            do throws(GPSDClientError) {
                try GPSDSocket.send(fd, Self.watchCommand, host: host, port: port)
            } catch {
                close(fd)
                throw error
            }
            descriptor = fd
            connections += 1
            linesAtConnect = decoder.lines
            logger.info(
                "connected to gpsd",
                metadata: [
                    "host": "\(host)", "port": "\(port)",
                    "reconnects": "\(reconnects)",
                ])
            return true
        } catch {
            failedAttempts += 1
            lastError = error
            pendingWait = backoff.recordFailure()
            let level: Logger.Level = backoff.consecutiveFailures == 1 ? .warning : .debug
            logger.log(level: level, "\(error)", metadata: ["retry_in": "\(pendingWait)"])
            return false
        }
    }

    private mutating func connectionLost(_ error: GPSDClientError) {
        let deliveredData = decoder.lines > linesAtConnect
        disconnect()
        connectionsLost += 1
        lastError = error
        // A connection that worked is retried at once; one that gave nothing counts as a failure.
        pendingWait = deliveredData ? .zero : backoff.recordFailure()
        logger.warning("\(error)", metadata: ["retry_in": "\(pendingWait)"])
    }
}
