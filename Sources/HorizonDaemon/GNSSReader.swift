import DaemonConfiguration
import Foundation
import GNSS
import GNSSSources
import Logging

/// Starts the thread that reads GNSS fixes (gpsd client or NMEA reader) into a ``FixInbox``.
///
/// The thread blocks on its source (at most about a second per step, so it notices a stop
/// request) and never touches the pipeline; the main loop collects the fixes every tick.
public enum GNSSReader {
    /// Starts reading from `source`; stop it with ``FixInbox/requestStop()``.
    public static func start(_ source: DaemonConfiguration.GNSSSource, logger: Logger) -> FixInbox {
        let inbox = FixInbox()
        let thread: Thread
        switch source {
        case .gpsd(let host, let port):
            thread = Thread { readGPSD(host: host, port: port, into: inbox, logger: logger) }
            thread.name = "adasis-gpsd"
        case .nmea(let path):
            thread = Thread {
                var reader = NMEAStreamReader(path: path, inbox: inbox, logger: logger)
                reader.run()
            }
            thread.name = "adasis-nmea"
        }
        thread.start()
        return inbox
    }

    /// The gpsd loop: one bounded client step at a time until a stop is requested.
    private static func readGPSD(host: String, port: Int, into inbox: FixInbox, logger: Logger) {
        var client: GPSDClient
        do {
            client = try GPSDClient(configuration: .init(host: host, port: UInt16(clamping: port)), logger: logger)
        } catch {
            logger.critical("cannot start the gpsd client: \(error)")
            return
        }
        var resets = 0
        while !inbox.stopRequested {
            let fix = client.nextFix()
            inbox.report(
                .init(
                    connected: client.isConnected, reconnects: client.reconnects,
                    skipped: client.decoder.skipped.countsByReason))
            guard let fix else { continue }
            // The decoder keeps fixes in time order, except after a receiver reset (time back by
            // more than a few seconds), which the core takes as a clock jump and starts again.
            if client.decoder.receiverResets > resets {
                resets = client.decoder.receiverResets
                logger.warning("gpsd: the receiver's time went back to \(fix.time); taken as a receiver reset")
            }
            if !inbox.deliver(fix, receivedAt: MonotonicClock.now()) { break }
        }
        client.disconnect()
    }
}
