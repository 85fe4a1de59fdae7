#if canImport(Glibc)
    import Glibc
#endif
import GNSS
import Logging

/// Reads NMEA 0183 from a serial device (or FIFO) as it comes, or from a regular file at the
/// pace of its fixes' times (a recorded drive replayed in real time), into a ``FixInbox``.
///
/// A serial device is put in raw mode (its speed is left as udev/stty set it). When it vanishes
/// or ends, it is reopened every second; a regular file that ends stops the reader (GNSS is then
/// lost, and the provider reports the position unknown).
public struct NMEAStreamReader {
    /// The device or file.
    public let path: String
    /// Where fixes go.
    public let inbox: FixInbox
    /// Problems and state changes.
    public let logger: Logger

    private var assembler = NMEAFixAssembler()
    private var pending: [UInt8] = []
    private var lastTime = -Double.infinity
    private var pace: (fixTime: Double, monotonic: Double)?

    /// A reader of `path`; nothing is opened before ``run()``.
    public init(path: String, inbox: FixInbox, logger: Logger) {
        self.path = path
        self.inbox = inbox
        self.logger = logger
    }

    /// Reads until a stop is requested (or a regular file ends).
    public mutating func run() {
        var failing = false
        while !inbox.stopRequested {
            let fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else {
                if !failing {
                    logger.error(
                        "cannot open NMEA source \(path): \(String(cString: strerror(errno))); retrying every second")
                    failing = true
                }
                inbox.report(.init(connected: false, skipped: assembler.skipped.countsByReason))
                MonotonicClock.sleep(.seconds(1))
                continue
            }
            if failing { logger.notice("NMEA source \(path) open again") }
            failing = false
            var status = stat()
            let isRegularFile = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
            if isatty(fd) == 1 { makeRaw(fd) }
            inbox.report(.init(connected: true, skipped: assembler.skipped.countsByReason))
            readAll(fd, paced: isRegularFile)
            close(fd)
            inbox.report(.init(connected: false, skipped: assembler.skipped.countsByReason))
            if isRegularFile {
                logger.notice("NMEA file \(path) ended: no more fixes")
                return
            }
            logger.warning("NMEA source \(path) closed; reopening")
            MonotonicClock.sleep(.seconds(1))
        }
    }

    private mutating func readAll(_ fd: Int32, paced: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !inbox.stopRequested {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 200)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                // A quiet line: the epoch in progress is complete.
                if let fix = assembler.finish() { guard hand(fix, paced: paced) else { return } }
                continue
            }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 {
                if count < 0 { logger.warning("reading \(path): \(String(cString: strerror(errno)))") }
                if let fix = assembler.finish() { _ = hand(fix, paced: paced) }
                return
            }
            pending.append(contentsOf: buffer[..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let fix = assembler.add(line: Substring(line)) { guard hand(fix, paced: paced) else { return } }
            }
            if pending.count > 4096 { pending.removeAll() }  // no NMEA line is this long: garbage
        }
    }

    /// Delivers `fix` (after waiting for its time when `paced`); false when a stop was requested.
    private mutating func hand(_ fix: GNSSFix, paced: Bool) -> Bool {
        inbox.report(.init(connected: true, skipped: assembler.skipped.countsByReason))
        if fix.time <= lastTime {
            // A late or repeated epoch is dropped; a time well back is a receiver reset (or a log
            // that starts again): kept, and the pacing starts again from it.
            guard lastTime - fix.time > GPSDStreamDecoder.receiverResetAfter else { return true }
            logger.warning("NMEA source \(path): time went back to \(fix.time); taken as a receiver reset")
            pace = nil
        }
        lastTime = fix.time
        if paced {
            let now = MonotonicClock.now()
            let anchor = pace ?? (fix.time, now)
            pace = anchor
            var wait = (fix.time - anchor.fixTime) - (now - anchor.monotonic)
            while wait > 0 {
                if inbox.stopRequested { return false }
                let slice = min(wait, 0.5)
                MonotonicClock.sleep(seconds: slice)
                wait -= slice
            }
        }
        return inbox.deliver(fix, receivedAt: MonotonicClock.now())
    }

    private func makeRaw(_ fd: Int32) {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        if tcsetattr(fd, TCSANOW, &settings) != 0 {
            logger.warning("cannot set \(path) to raw mode: \(String(cString: strerror(errno)))")
        }
    }
}
