import GNSSSources
import SocketCAN

/// How a command that sends frames reacts to a full transmit queue: retry after 1 ms, 2 ms, 4 ms, …
/// (each wait at most 1 024 ms) up to `retries` times, then give the frame up.
///
/// A command with no deadline (`adasis send`, or `adasis replay` without `--speed`) retries: losing
/// frames would only make the recording differ from the log. A paced replay, like the daemon,
/// drops at once and counts, because a late frame is a wrong frame.
struct FullQueueRetry {
    /// Retries after the first attempt; 0 drops a frame as soon as the queue is full.
    var retries: Int

    /// Sends `frame`; returns false when the queue stayed full through every retry.
    /// - Throws: any other ``SocketCANError`` (interface down, no such device, …).
    func send(_ frame: CANFrame, on socket: borrowing CANSocket) throws(SocketCANError) -> Bool {
        var attempt = 0
        while true {
            do {
                try socket.sendNonBlocking(frame)
                return true
            } catch  where error.code == .transmitQueueFull {
                if attempt >= retries { return false }
                MonotonicClock.sleep(.milliseconds(1 << min(attempt, 10)))
                attempt += 1
            }
        }
    }
}
