import ArgumentParser
import Foundation
import GNSSSources
import SocketCAN

/// `adasis send LOG --can vcan0`: sends the frames of a candump log to an interface, like canplayer.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send the frames of a candump -L log to a CAN interface.")

    @Argument(help: "The candump -L log to send, or - for standard input.")
    var log: String = "-"

    @Option(name: .customLong("can"), help: "The CAN interface to send on, e.g. vcan0.")
    var interface: String

    @Flag(help: "Honour the log's timestamps instead of sending as fast as possible.")
    var realtime = false

    @Option(help: "How many times to retry a frame while the transmit queue is full before dropping it.")
    var retries: Int = 8

    func validate() throws {
        if retries < 0 { throw ValidationError("--retries must be 0 or more, got \(retries)") }
    }

    func run() throws {
        let records = try readRecords()
        let socket: CANSocket
        do {
            let status = try CANInterfaceStatus(interface: interface)
            guard status.isUp else {
                printToStandardError(
                    "adasis send: \(interface) is down; bring it up with 'ip link set \(interface) up'")
                throw ExitCode.failure
            }
            socket = try CANSocket(interface: interface)
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis send: \(error)")
            throw ExitCode.failure
        }
        var sent = 0
        var dropped = 0
        let start = MonotonicClock.now()
        let firstStamp = records.first?.timestampMicroseconds ?? 0
        for record in records {
            if realtime {
                let due = Double(record.timestampMicroseconds - firstStamp) / 1_000_000
                MonotonicClock.sleep(seconds: due - (MonotonicClock.now() - start))
            }
            switch try sendWithBackoff(record.frame, on: socket) {
            case true: sent += 1
            case false: dropped += 1
            }
        }
        printToStandardError(
            "adasis send: \(sent) frames sent, \(dropped) dropped (transmit queue full) on \(interface)")
    }

    /// Sends one frame, retrying while the transmit queue is full (false: dropped). Any other error
    /// ends the command.
    private func sendWithBackoff(_ frame: CANFrame, on socket: borrowing CANSocket) throws -> Bool {
        do {
            return try socket.send(frame, retryingWhileFull: retries)
        } catch {
            printToStandardError("adasis send: \(error)")
            throw ExitCode.failure
        }
    }

    /// Reads and parses the whole log first, so a malformed log sends nothing.
    private func readRecords() throws -> [CandumpRecord] {
        let data: Data
        if log == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: log) else {
                printToStandardError("adasis send: cannot read '\(log)': no such file or not readable")
                throw ExitCode.failure
            }
            data = contents
        }
        let parsed = CandumpLog.parse(text: String(decoding: data, as: UTF8.self))
        if !parsed.errors.isEmpty {
            for error in parsed.errors.prefix(10) { printToStandardError("adasis send: \(log): \(error)") }
            printToStandardError("adasis send: \(parsed.errors.count) malformed line(s); nothing was sent")
            throw ExitCode.failure
        }
        return parsed.records
    }
}
