#if canImport(Glibc)
    import Glibc
#endif

extension CANSocket {
    /// Sends `frame` without blocking; while the transmit queue is full, retries after 1 ms, 2 ms,
    /// 4 ms, … (each wait at most 1 024 ms), up to `retries` times. Returns false when the queue
    /// stayed full through every retry, so the caller can count the frame as dropped.
    ///
    /// For senders with no deadline (`adasis send`, an unpaced `adasis replay`); a sender with a
    /// deadline passes 0 and drops at once, because a late frame is a wrong frame. A driver that
    /// reports ENOBUFS does not wake `poll`, so waiting is by time, not by `POLLOUT`.
    /// - Throws: any other ``SocketCANError`` (interface down, no such device, …) at once.
    public func send(_ frame: CANFrame, retryingWhileFull retries: Int) throws(SocketCANError) -> Bool {
        var attempt = 0
        while true {
            do {
                try sendNonBlocking(frame)
                return true
            } catch  where error.code == .transmitQueueFull {
                if attempt >= retries { return false }
                let nanoseconds = 1_000_000 << min(attempt, 10)
                var pause = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
                var remaining = timespec()
                while nanosleep(&pause, &remaining) == -1 && errno == EINTR { pause = remaining }
                attempt += 1
            }
        }
    }
}
