import Foundation
import GNSS
import Logging
import Testing
import TestSupport
@testable import GNSSSources

/// An NMEA sentence with its checksum: `$BODY*HH`.
private func sentence(_ body: String) -> String {
    let checksum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(checksum, radix: 16, uppercase: true)
    return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
}

/// RMC + GGA lines for epochs `tenths` tenths of a second after 2026-03-14T10:00:00Z.
private func epochs(_ tenths: [Int]) -> String {
    tenths.map { tenth in
        let time = String(format: "1000%02d.%02d", tenth / 10, (tenth % 10) * 10)
        return sentence("GPRMC,\(time),A,5231.2000,N,01324.3000,E,38.9,71.3,140326,,,A") + "\r\n"
            + sentence("GPGGA,\(time),5231.2000,N,01324.3000,E,1,09,0.9,34.5,M,39.4,M,,") + "\r\n"
    }.joined()
}

private let start = 1_773_482_400.0

/// A logger that writes nothing.
private let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

@Suite("NMEA stream reader", .serialized)
struct NMEAStreamReaderTests {
    @Test(
        "a regular file is replayed at the pace of its fixes' times, then the reader stops",
        .timeLimit(.minutes(1)))
    func pacedFile() throws {
        let path = ScratchDirectory.path("nmea.nmea")
        try epochs([0, 2, 4, 6, 6, 3]).write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let inbox = FixInbox()
        var reader = NMEAStreamReader(path: path, inbox: inbox, logger: quiet)
        let began = MonotonicClock.now()
        reader.run()
        let took = MonotonicClock.now() - began
        let arrivals = inbox.collect()
        // Repeated and older epochs are skipped.
        #expect(arrivals.map { ($0.fix.time - start) * 10 }.map { $0.rounded() } == [0, 2, 4, 6])
        // Paced: no fix is handed over before its time (relative to the first), and the whole
        // file takes its 0.6 s.
        let first = try #require(arrivals.first)
        for arrival in arrivals {
            let due = arrival.fix.time - first.fix.time
            #expect(arrival.receivedAt - first.receivedAt >= due - 0.01, "fix \(due) s in arrived early")
        }
        #expect(took >= 0.55 && took < 10)
        #expect(!inbox.source.connected, "an ended file is reported closed")
    }

    @Test(
        "a receiver reset (time back by more than 2 s) is handed on, not dropped; a bad sentence is counted by reason",
        .timeLimit(.minutes(1)))
    func receiverReset() throws {
        let path = ScratchDirectory.path("nmea-reset.nmea")
        try (epochs([40, 42, 44]) + "$GPRMC,garbage\r\n" + epochs([0, 2])).write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let inbox = FixInbox()
        var reader = NMEAStreamReader(path: path, inbox: inbox, logger: quiet)
        reader.run()
        let arrivals = inbox.collect()
        #expect(arrivals.map { (($0.fix.time - start) * 10).rounded() } == [40, 42, 44, 0, 2])
        #expect(inbox.source.skipped == ["not an NMEA sentence": 1])
    }

    @Test(
        "a source that cannot be opened is reported disconnected and retried until a stop",
        .timeLimit(.minutes(1)))
    func missingSource() throws {
        let inbox = FixInbox()
        let reading = BackgroundThread {
            var reader = NMEAStreamReader(path: "/nonexistent/ttyGNSS", inbox: inbox, logger: quiet)
            reader.run()
        }
        MonotonicClock.sleep(.milliseconds(300))
        #expect(!inbox.source.connected)
        let stopped = MonotonicClock.now()
        inbox.requestStop()
        let ended = try #require(reading.wait(timeout: 30), "the reader never stopped")
        #expect(ended - stopped < 3, "notices the stop within about a second")
        #expect(inbox.collect().isEmpty)
    }

    @Test(
        "a FIFO is read as it comes, unpaced; a quiet line completes the epoch in progress",
        .timeLimit(.minutes(1)))
    func fifo() throws {
        let path = ScratchDirectory.path("nmea-fifo")
        unlink(path)
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let inbox = FixInbox()
        let reading = BackgroundThread {
            var reader = NMEAStreamReader(path: path, inbox: inbox, logger: quiet)
            reader.run()
        }
        // Opening a FIFO for writing waits for its reader, which the thread above is.
        let writer = try #require(FileHandle(forWritingAtPath: path))
        writer.write(Data(epochs([0, 100]).utf8))  // 10 s apart in receiver time
        var arrivals: [FixInbox.Arrival] = []
        for _ in 0..<200 where arrivals.count < 2 {
            MonotonicClock.sleep(.milliseconds(50))
            arrivals += inbox.collect()
        }
        #expect(arrivals.count == 2, "both epochs at once, the second completed by the quiet line")
        #expect(inbox.source.connected)
        inbox.requestStop()
        try writer.close()
        #expect(reading.wait(timeout: 30) != nil, "the reader stops")
    }
}
