/// Episodes of CAN faults, so each is logged once when it starts and once when it ends, and
/// counted per episode rather than per frame.
public struct BusFaultEpisodes: Hashable, Sendable {
    /// A fault that comes and goes.
    public enum Fault: String, Hashable, Sendable, CaseIterable {
        /// The driver's transmit queue is full (ENOBUFS).
        case transmitQueueFull = "transmit queue full"
        /// The interface is down or gone.
        case interfaceDown = "interface down"
        /// The controller is bus-off.
        case busOff = "bus-off"
        /// The controller is error passive.
        case errorPassive = "error passive"
    }

    /// Faults in progress.
    public private(set) var active: Set<Fault> = []
    /// Episodes begun so far, per fault.
    public private(set) var episodes: [Fault: Int] = [:]

    /// An empty record.
    public init() {}

    /// Marks `fault` as present; true when this starts a new episode (log it).
    @discardableResult
    public mutating func begin(_ fault: Fault) -> Bool {
        guard active.insert(fault).inserted else { return false }
        episodes[fault, default: 0] += 1
        return true
    }

    /// Marks `fault` as gone; true when an episode ended (log it).
    @discardableResult
    public mutating func end(_ fault: Fault) -> Bool {
        active.remove(fault) != nil
    }

    /// Whether `fault` is in progress.
    public func isActive(_ fault: Fault) -> Bool { active.contains(fault) }

    /// Episodes of `fault` so far.
    public func count(_ fault: Fault) -> Int { episodes[fault, default: 0] }
}
