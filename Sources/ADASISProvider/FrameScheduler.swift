import ADASISv2

/// The bus budget: releases at most a fixed number of frames per tick, most urgent first
/// (POSITION and META-DATA, then the near horizon, then the far horizon, then retransmissions),
/// assigns each message type's cyclic counter at release and encodes the frame.
///
/// Horizon frames that do not fit wait for the next tick; retransmissions that do not fit are
/// skipped (they repeat content already sent); when too many frames wait, the farthest are
/// dropped and counted. Nothing here blocks.
struct FrameScheduler {
    private struct Waiting {
        var message: ADASISMessage
        var priority: FramePriority
        var sequence: Int
    }

    private var waiting: [Waiting] = []
    private var sequence = 0
    /// The next cyclic counter per message type.
    var counters: [MessageType: UInt8] = [:]
    let framesPerTick: Int
    let maximumQueued: Int
    let identifiers: CANIdentifierAssignment
    let byteOrder: ByteOrder

    init(configuration: ProviderConfiguration) {
        framesPerTick = configuration.framesPerTick
        maximumQueued = configuration.maximumQueuedFrames
        identifiers = configuration.identifiers
        byteOrder = configuration.byteOrder
    }

    /// Frames waiting.
    var queuedCount: Int { waiting.count }

    mutating func enqueue(_ message: ADASISMessage, priority: FramePriority, counters stats: inout ProviderCounters) {
        waiting.append(Waiting(message: message, priority: priority, sequence: sequence))
        sequence += 1
        guard waiting.count > maximumQueued else { return }
        // Drop the least urgent, newest frame.
        if let worst = waiting.indices.max(by: {
            (waiting[$0].priority, waiting[$0].sequence) < (waiting[$1].priority, waiting[$1].sequence)
        }) {
            if waiting[worst].priority == .retransmission {
                stats.retransmissionsSkipped += 1
            } else {
                stats.framesDroppedByBudget[waiting[worst].message.type, default: 0] += 1
            }
            waiting.remove(at: worst)
        }
    }

    /// The frames of one tick at `time`.
    mutating func release(at time: Double, counters stats: inout ProviderCounters) -> [ProviderFrame] {
        waiting.sort { ($0.priority, $0.sequence) < ($1.priority, $1.sequence) }
        let count = min(framesPerTick, waiting.count)
        var frames: [ProviderFrame] = []
        frames.reserveCapacity(count)
        for entry in waiting.prefix(count) {
            var message = entry.message
            let type = message.type
            let counter = counters[type, default: 0]
            message.setCyclicCounter(counter)
            do {
                let data = try message.encode(byteOrder: byteOrder)
                guard let identifier = identifiers.identifier(for: type) else { continue }
                frames.append(
                    ProviderFrame(
                        time: time, identifier: identifier.rawValue, isExtended: identifier.isExtended,
                        data: data, message: message, priority: entry.priority))
                counters[type] = (counter + 1) & 3
                stats.framesSent[type, default: 0] += 1
            } catch {
                stats.encodingFailures += 1
            }
        }
        waiting.removeFirst(count)
        let before = waiting.count
        waiting.removeAll { $0.priority == .retransmission }
        stats.retransmissionsSkipped += before - waiting.count
        return frames
    }

    /// Forgets the waiting frames of path `index`: its own content and the STUBs that open it.
    /// Sent after the path was retired, they would reach a receiver that has already purged the
    /// path and rebuild it there as a parentless path, whose stale content a later path given the
    /// same index would inherit.
    mutating func discardFrames(ofPath index: UInt8) {
        waiting.removeAll { entry in
            if case .stub(let stub) = entry.message, stub.subPathIndex == index { return true }
            return entry.message.pathPlace?.pathIndex == index
        }
    }

    /// Forgets every waiting frame (a new horizon replaces them).
    mutating func discardHorizon() {
        waiting.removeAll { $0.priority != .vehicle }
    }
}

extension ADASISMessage {
    /// Sets the cyclic counter of whichever message this is.
    mutating func setCyclicCounter(_ counter: UInt8) {
        switch self {
        case .position(var m): m.cyclicCounter = counter; self = .position(m)
        case .segment(var m): m.cyclicCounter = counter; self = .segment(m)
        case .stub(var m): m.cyclicCounter = counter; self = .stub(m)
        case .profileShort(var m): m.cyclicCounter = counter; self = .profileShort(m)
        case .profileLong(var m): m.cyclicCounter = counter; self = .profileLong(m)
        case .metaData(var m): m.cyclicCounter = counter; self = .metaData(m)
        }
    }

    /// Path index and offset of horizon messages.
    var pathPlace: (pathIndex: UInt8, offset: UInt16)? {
        switch self {
        case .segment(let m): return (m.pathIndex, m.offset)
        case .stub(let m): return (m.pathIndex, m.offset)
        case .profileShort(let m): return (m.pathIndex, m.offset)
        case .profileLong(let m): return (m.pathIndex, m.offset)
        case .position, .metaData: return nil
        }
    }
}
