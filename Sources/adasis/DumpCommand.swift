import ArgumentParser
import SocketCAN
#if canImport(Glibc)
    import Glibc
#endif

/// `adasis dump vcan0`: receives frames with our own SocketCAN socket and prints candump -L lines.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print frames received on a CAN interface as candump -L lines (one per line, flushed).",
        discussion: """
            Frames the kernel dropped because this reader fell behind the bus (its receive queue \
            was full) are reported on standard error as they are noticed, with the running total, \
            as candump -d does; the log on standard output holds only frames received.
            """)

    @Argument(help: "The CAN interface to listen on, e.g. vcan0.")
    var interface: String

    @Option(help: "Stop after this many frames (default: run until the timeout or forever).")
    var count: Int?

    @Option(help: "Stop when no frame arrives for this many seconds (default: wait forever).")
    var timeout: Double?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1, got \(count)") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    private func openSocket() throws -> CANSocket {
        do {
            let socket = try CANSocket(interface: interface)
            try socket.subscribeToErrorFrames()
            return socket
        } catch {
            printToStandardError("adasis dump: \(error)")
            throw ExitCode.failure
        }
    }

    func run() throws {
        let socket = try openSocket()
        // Scripts wait for this line before sending, so no frame is missed.
        printToStandardError("adasis dump: listening on \(interface)")
        let waitMilliseconds = timeout.map { Int32(min($0 * 1000, Double(Int32.max))) } ?? -1
        var received = 0
        var drops = KernelDropTally()
        while count.map({ received < $0 }) ?? true {
            let next: ReceivedCANFrame
            do {
                next = try socket.receive(timeoutMilliseconds: waitMilliseconds)
            } catch  where error.code == .timedOut {
                break
            } catch {
                printToStandardError("adasis dump: \(error)")
                throw ExitCode.failure
            }
            let dropped = drops.newDrops(before: next)
            if dropped > 0 {
                printToStandardError(
                    "adasis dump: \(dropped) frames dropped by the kernel on \(interface) before "
                        + "this one (receive queue full: the reader is slower than the bus); \(drops.total) in all")
            }
            let record = CandumpRecord(
                timestampMicroseconds: next.timestampMicroseconds ?? 0,
                interface: next.interface, frame: next.frame)
            print(record.line)
            fflush(nil)  // flush per line so `adasis dump | …` sees frames as they arrive
            received += 1
        }
    }
}

/// Writes one line to standard error.
func printToStandardError(_ message: String) {
    let text = message + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}
