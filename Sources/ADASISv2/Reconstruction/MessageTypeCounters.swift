/// Reception statistics of one message type.
public struct MessageTypeCounters: Hashable, Sendable {
    /// Messages of this type received.
    public internal(set) var received = 0
    /// Cyclic-counter discontinuities: times the counter did not advance by exactly 1.
    public internal(set) var gaps = 0
    /// Messages estimated lost from the gaps (a counter that repeats counts as 3 lost: the counter
    /// has only 4 values, so a repeat and a loss of 3 look the same).
    public internal(set) var missedMessages = 0
    /// Retransmissions of content already held, ignored.
    public internal(set) var retransmissionsIgnored = 0
    /// Messages discarded: invalid offset (8191), path or sub-path index outside the allowed range,
    /// or a STUB that would make a path its own ancestor.
    public internal(set) var discarded = 0
    /// The last cyclic counter seen.
    public internal(set) var lastCounter: UInt8?
    /// The time of the last message of this type.
    public internal(set) var lastTime: Double?

    /// Creates empty counters.
    public init() {}

    /// Records a message with cyclic counter `counter` at `time`.
    mutating func record(counter: UInt8, time: Double) {
        received += 1
        if let lastCounter {
            let step = (Int(counter) - Int(lastCounter) + 4) % 4
            if step != 1 {
                gaps += 1
                missedMessages += (step + 3) % 4
            }
        }
        lastCounter = counter
        lastTime = time
    }
}
