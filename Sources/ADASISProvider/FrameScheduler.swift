import ADASISv2

/// The bus budget: releases at most a fixed number of frames per tick, most urgent first
/// (POSITION and META-DATA, then the near horizon, then the far horizon, then retransmissions),
/// assigns each message type's cyclic counter at release and encodes the frame.
///
/// Horizon frames that do not fit wait for the next tick; retransmissions that do not fit are
/// skipped (they repeat content already sent); when too many frames wait, the farthest are
/// dropped and counted. Nothing here blocks.
struct FrameScheduler {
    /// The frames waiting, one first-in first-out queue per priority (by raw value): the order of
    /// release is priority, then arrival, without sorting everything waiting at every tick.
    private var queues: [[ADASISMessage]] = Array(repeating: [], count: FramePriority.allCases.count)
    /// The number of frames waiting in all queues.
    var queuedCount: Int { queues.reduce(0) { $0 + $1.count } }
    /// The next cyclic counter per message type, by its raw value (an array: it is read and
    /// written for every frame released).
    var counters = [UInt8](repeating: 0, count: MessageType.allCases.count)
    /// Frames released by type during one ``release(at:counters:)``, by raw value (zero between
    /// releases): added to the counters' table once per type rather than once per frame.
    private var releasedByType = [Int](repeating: 0, count: MessageType.allCases.count)
    /// How many STUBs opening each path index wait in each queue (by queue raw value, then
    /// index; counted in the horizon queues only): the content of a path never goes out before the
    /// STUB that places it (``horizonPriority(of:_:)``).
    private var waitingOpeners = Array(
        repeating: [Int](repeating: 0, count: 64), count: FramePriority.allCases.count)
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

    mutating func enqueue(_ message: ADASISMessage, priority: FramePriority, counters stats: inout ProviderCounters) {
        let priority = horizonPriority(of: message, priority)
        if priority.isHorizon, let opened = Self.openedPath(message) {
            waitingOpeners[priority.rawValue][opened] += 1
        }
        queues[priority.rawValue].append(message)
        guard queuedCount > maximumQueued else { return }
        // Drop the least urgent, newest frame: the last of the least urgent queue holding any.
        guard let worst = queues.indices.last(where: { !queues[$0].isEmpty }) else { return }
        let dropped = queues[worst].removeLast()
        forget(dropped, from: worst)
        if worst == FramePriority.retransmission.rawValue {
            stats.retransmissionsSkipped += 1
        } else {
            stats.framesDroppedByBudget[dropped.type, default: 0] += 1
        }
    }

    /// The frames of one tick at `time`.
    mutating func release(at time: Double, counters stats: inout ProviderCounters) -> [ProviderFrame] {
        var frames: [ProviderFrame] = []
        frames.reserveCapacity(min(framesPerTick, queuedCount))
        var room = framesPerTick
        for priority in FramePriority.allCases where room > 0 {
            let count = min(room, queues[priority.rawValue].count)
            for entry in queues[priority.rawValue].prefix(count) {
                forget(entry, from: priority.rawValue)
                var message = entry
                let type = message.type
                let counter = counters[Int(type.rawValue)]
                message.setCyclicCounter(counter)
                do {
                    let payload = try message.encodedWord(byteOrder: byteOrder)
                    guard let identifier = identifiers.identifier(for: type) else { continue }
                    frames.append(
                        ProviderFrame(
                            time: time, identifier: identifier.rawValue, isExtended: identifier.isExtended,
                            payload: payload, message: message, priority: priority))
                    counters[Int(type.rawValue)] = (counter + 1) & 3
                    releasedByType[Int(type.rawValue)] += 1
                } catch {
                    stats.encodingFailures += 1
                }
            }
            queues[priority.rawValue].removeFirst(count)
            room -= count
        }
        for type in MessageType.allCases where releasedByType[Int(type.rawValue)] > 0 {
            stats.framesSent[type, default: 0] += releasedByType[Int(type.rawValue)]
            releasedByType[Int(type.rawValue)] = 0
        }
        // Retransmissions that did not fit are skipped, not carried over.
        let skipped = queues[FramePriority.retransmission.rawValue].count
        queues[FramePriority.retransmission.rawValue].removeAll(keepingCapacity: true)
        stats.retransmissionsSkipped += skipped
        return frames
    }

    /// Forgets the waiting frames of the paths `indices`: their own content and the STUBs that
    /// open them.
    /// Sent after the path was retired, they would reach a receiver that has already purged the
    /// path and rebuild it there as a parentless path, whose stale content a later path given the
    /// same index would inherit.
    mutating func discardFrames(ofPaths indices: PathIndexSet) {
        guard !indices.isEmpty else { return }
        for priority in queues.indices {
            var discarded: [ADASISMessage] = []
            queues[priority].removeAll { message in
                let discards: Bool
                if case .stub(let stub) = message, indices.contains(stub.subPathIndex) {
                    discards = true
                } else {
                    discards = message.pathPlace.map { indices.contains($0.pathIndex) } ?? false
                }
                if discards, case .stub = message { discarded.append(message) }
                return discards
            }
            for message in discarded { forget(message, from: priority) }
        }
    }

    /// `priority`, or the least urgent horizon queue where a STUB opening the message's path waits,
    /// when that is less urgent. A path index given to a new path is placed by its parent's STUB;
    /// content of the path that overtook that STUB (near content queued after a far STUB, as the
    /// vehicle came nearer) would reach a receiver that still holds the index's previous path, and
    /// be dropped with it when the STUB re-places the index.
    private func horizonPriority(of message: ADASISMessage, _ priority: FramePriority) -> FramePriority {
        guard priority.isHorizon, let place = message.pathPlace, place.pathIndex < 64 else { return priority }
        return FramePriority.allCases.last {
            $0.isHorizon && $0 > priority && waitingOpeners[$0.rawValue][Int(place.pathIndex)] > 0
        } ?? priority
    }

    /// The regular path index a STUB opens, `nil` for any other message.
    private static func openedPath(_ message: ADASISMessage) -> Int? {
        guard case .stub(let stub) = message,
            (PathIndexAllocator.firstRegular...PathIndexAllocator.lastRegular).contains(stub.subPathIndex)
        else { return nil }
        return Int(stub.subPathIndex)
    }

    /// Books `message` as gone from queue `priority` (released, dropped or discarded).
    private mutating func forget(_ message: ADASISMessage, from priority: Int) {
        guard FramePriority(rawValue: priority)?.isHorizon == true, let opened = Self.openedPath(message) else {
            return
        }
        waitingOpeners[priority][opened] -= 1
    }

    /// Forgets every waiting frame (a new horizon replaces them).
    mutating func discardHorizon() {
        for priority in queues.indices where priority != FramePriority.vehicle.rawValue {
            queues[priority].removeAll()
        }
        waitingOpeners = Array(repeating: [Int](repeating: 0, count: 64), count: FramePriority.allCases.count)
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
