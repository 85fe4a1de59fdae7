import Foundation
import MapView
import SocketCAN

/// Feeds a ``LiveHorizon`` from the outside world on a thread of its own: the frames of a CAN
/// interface (a raw socket, as an ECU reads the bus) or of a candump log played back at its own
/// pace. The interface may go down, disappear and come back: the reader says so in the horizon
/// (`problem`, shown as "no frames since …") and goes on; the server keeps serving.
public final class LiveFrameReader: @unchecked Sendable {
    /// Where the frames come from.
    public enum Source: Sendable {
        /// A CAN interface, such as `vcan0`.
        case interface(String)
        /// A candump -L log's records, replayed at `pace` times their own pace (log time 0 is
        /// the reader's start).
        case log(name: String, records: [CandumpRecord], pace: Double)
    }

    private let lock = NSLock()
    private var horizon: LiveHorizon
    private let source: Source
    private let clock: @Sendable () -> Double

    /// A reader of `source`; `clock` gives the receiver's time in seconds (default: the wall clock).
    public init(source: Source, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.source = source
        self.clock = clock
        switch source {
        case .interface(let name): sourceName = name
        case .log(let name, _, _): sourceName = name
        }
        horizon = LiveHorizon(source: sourceName)
    }

    /// The source's name as the page shows it.
    public let sourceName: String

    /// The live horizon's document now (`/live.json`).
    public func document() throws -> Data {
        let now = clock()
        return try lock.withLock { try horizon.document(at: now) }
    }

    /// A copy of the live horizon now.
    public var current: LiveHorizon { lock.withLock { horizon } }

    /// Starts reading on a new thread; it runs for the life of the process.
    public func start() {
        let thread = Thread { [self] in
            switch source {
            case .interface(let name): readInterface(name)
            case .log(let name, let records, let pace): play(records, name: name, pace: pace)
            }
        }
        thread.name = "adasis-view-live"
        thread.start()
    }

    private func update(_ change: (inout LiveHorizon) -> Void) { lock.withLock { change(&horizon) } }

    private func failed(_ reason: String) {
        let now = clock()
        update { $0.sourceFailed(reason, time: now) }
    }

    /// Reads `name` forever: opens it (again and again while it is missing), receives with a
    /// short timeout, and on each timeout checks that the interface is still the one opened
    /// and up.
    func readInterface(_ name: String) {
        while true {
            do {
                let socket = try CANSocket(interface: name)
                let index = try CANInterfaceStatus(interface: name).index
                receiveUntilLost(socket, name: name, index: index)
            } catch {
                failed("cannot open \(name): \(error); retrying every 0.5 s")
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    /// Receives from `socket` until the interface is gone or replaced (the socket is then closed
    /// and the caller opens a new one).
    private func receiveUntilLost(_ socket: borrowing CANSocket, name: String, index: Int32) {
        var drops = KernelDropTally()
        while true {
            do throws(SocketCANError) {
                let received = try socket.receive(timeoutMilliseconds: 500)
                let time = received.timestampMicroseconds.map { Double($0) / 1e6 } ?? clock()
                let dropped = drops.newDrops(before: received)
                if dropped > 0 { update { $0.kernelDropped(dropped) } }
                guard !received.frame.isErrorFrame, !received.frame.isRemoteTransmissionRequest else { continue }
                update {
                    $0.receive(
                        identifier: received.frame.identifier.value, isExtended: received.frame.identifier.isExtended,
                        data: received.frame.data, time: time)
                }
            } catch  where error.code == .timedOut {
                do {
                    let status = try CANInterfaceStatus(interface: name)
                    guard status.index == index else {
                        failed("\(name) was replaced (a new interface of that name); reopening")
                        return
                    }
                    if !status.isUp { failed("\(name) is down") }
                } catch {
                    failed("\(name) is gone: \(error)")
                    return
                }
            } catch  where error.code == .networkDown {
                failed("\(name) is down")
                Thread.sleep(forTimeInterval: 0.2)
            } catch {
                failed("cannot receive on \(name): \(error)")
                Thread.sleep(forTimeInterval: 0.5)
                return
            }
        }
    }

    /// Plays `records` back: each at its log time divided by `pace` after the start, received at
    /// that moment of the reader's clock. At the end the horizon says the log ended.
    func play(_ records: [CandumpRecord], name: String, pace: Double) {
        guard let first = records.first?.timestampSeconds else {
            failed("the log \(name) has no frames")
            return
        }
        let start = clock()
        for record in records {
            let due = start + (record.timestampSeconds - first) / pace
            let wait = due - clock()
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            guard !record.frame.isErrorFrame, !record.frame.isRemoteTransmissionRequest else { continue }
            let now = clock()
            update {
                $0.receive(
                    identifier: record.frame.identifier.value, isExtended: record.frame.identifier.isExtended,
                    data: record.frame.data, time: now)
            }
        }
        failed("the log \(name) ended (\(records.count) frames played)")
    }
}
