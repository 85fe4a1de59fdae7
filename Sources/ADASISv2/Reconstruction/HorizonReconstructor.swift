/// Rebuilds the horizon from a stream of ADASIS v2 messages, the way a receiving ECU does (the
/// sender's policies it relies on: `Docs/adasis-conventions.md`). A value type without I/O: feed
/// it messages in reception order.
///
/// - META-DATA is kept as received; each change of country, region or driving side is recorded
///   with its time (`ReconstructedHorizon.placeChanges`).
/// - STUBs place sub-paths in the tree (parent, absolute branch offset, announcing stub).
/// - SEGMENTs and profile spots are stored by (path, absolute offset, kind). Offsets are unwrapped
///   modulo 8191 against the vehicle's position on that path: into the window that starts
///   `Configuration.unwrapLookBehind` metres behind the vehicle (never before the path start).
/// - A Retransmission of something already held is ignored (and counted); anything else, an
///   Update in particular, replaces what is held at the same (path, offset, kind).
/// - POSITION (PositionIndex 0) moves the vehicle; a POSITION on another regular path re-roots the
///   tree there: that path and its sub-paths stay, every other path is dropped. It also starts a
///   new cycle of candidates: PositionIndex 1…3 that follow it are alternative positions (parallel
///   roads the sender is unsure between, on sub-paths), kept in `positionCandidates` until the next
///   PositionIndex 0. After each move,
///   content more than `Configuration.trailingLength` metres behind the vehicle is purged (the
///   SEGMENT and profile spots still in force at the purge line are kept), with the sub-paths that
///   branch off there.
/// - Each message type's cyclic counter is watched for gaps (`ReconstructedHorizon.counters`).
///
/// Usage:
/// ```swift
/// var reconstructor = HorizonReconstructor(configuration: .init(trailingLength: 300))
/// for (time, payload) in receivedFrames {
///     do { try reconstructor.apply(payload: payload, time: time) }
///     catch { log("undecodable frame: \(error)") }   // typed FieldCodingError
/// }
/// let horizon = reconstructor.horizon
/// if let main = horizon.mainPath, let vehicle = horizon.position?.absoluteOffset,
///    let units = horizon.metaData?.speedUnits,
///    let limit = main.segment(at: vehicle)?.speedLimitKilometresPerHour(units: units) {
///     print("speed limit here: \(limit) km/h")
/// }
/// ```
public struct HorizonReconstructor: Sendable {
    /// Tunable behaviour.
    public struct Configuration: Hashable, Sendable {
        /// Metres of content kept behind the vehicle (default 500).
        public var trailingLength: Int
        /// How far behind the vehicle a received offset may lie when unwrapping modulo 8191
        /// (default 2047): offsets land in `[vehicle − lookBehind, vehicle − lookBehind + 8191)`.
        public var unwrapLookBehind: Int

        /// Creates a configuration.
        public init(trailingLength: Int = 500, unwrapLookBehind: Int = 2047) {
            self.trailingLength = max(0, trailingLength)
            self.unwrapLookBehind = min(max(0, unwrapLookBehind), PathOffset.period - 1)
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// What has been rebuilt so far.
    public internal(set) var horizon = ReconstructedHorizon()
    /// Payloads that could not be decoded by `apply(payload:byteOrder:time:)`.
    public internal(set) var undecodableFrames = 0
    /// The junction (path, absolute offset) whose STUBs an Update burst is replacing.
    var junctionBeingUpdated: (path: UInt8, offset: Int)?

    /// Creates an empty reconstructor.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Decodes an 8-byte payload and applies it. Undecodable payloads are counted in
    /// `undecodableFrames` and rethrown as the decoder's typed error; the horizon is unchanged.
    public mutating func apply(
        payload: [UInt8], byteOrder: ByteOrder = .bigEndian,
        time: Double
    ) throws(FieldCodingError) {
        let message: ADASISMessage
        do {
            message = try ADASISMessage.decode(payload, byteOrder: byteOrder)
        } catch {
            undecodableFrames += 1
            throw error
        }
        apply(message, time: time)
    }

    /// Applies one received message; `time` (seconds, the caller's clock) is recorded, never read
    /// from a clock.
    public mutating func apply(_ message: ADASISMessage, time: Double) {
        horizon.counters[message.type, default: MessageTypeCounters()].record(
            counter: message.cyclicCounter, time: time)
        switch message {
        case .metaData(let metaData):
            let place = MetaDataPlaceChange(metaData, time: time)
            if horizon.placeChanges.last.map({ !$0.samePlace(as: place) }) ?? true {
                horizon.placeChanges.append(place)
            }
            horizon.metaData = metaData
        case .position(let position): apply(position, time: time)
        case .segment(let segment): apply(segment)
        case .stub(let stub): apply(stub)
        case .profileShort(let profile): apply(profile)
        case .profileLong(let profile): apply(profile)
        }
    }

    // MARK: Position and re-rooting

    private mutating func apply(_ position: PositionMessage, time: Double) {
        let path = position.pathIndex
        let isRegular = Self.isRegularPath(path)
        let absolute = isRegular ? absoluteOffset(position.offset, on: path) : nil
        let received = ReconstructedPosition(message: position, absoluteOffset: absolute, time: time)
        guard position.positionIndex == 0 else {
            // An alternative of the current cycle: the vehicle may be there instead (parallel roads).
            horizon.positionCandidates[position.positionIndex] = received
            return
        }
        if isRegular, path != horizon.mainPathIndex { reRoot(at: path) }
        // A new cycle: the alternatives of the previous one no longer hold.
        horizon.positionCandidates = [0: received]
        horizon.position = received
        if isRegular, let absolute {
            horizon.vehicleOffset = absolute
            purgeTrailing()
        }
    }

    /// Makes `index` the main path: it and its sub-paths stay, every other path is dropped.
    private mutating func reRoot(at index: UInt8) {
        let kept = subtree(of: index)
        horizon.paths = horizon.paths.filter { kept.contains($0.key) }
        var root = horizon.paths[index] ?? ReconstructedPath(index: index)
        root.parent = nil
        root.branchOffset = nil
        root.announcingStub = nil
        horizon.paths[index] = root
        if horizon.mainPathIndex != nil { horizon.reRootCount += 1 }
        horizon.mainPathIndex = index
        horizon.vehicleOffset = nil
    }

    // MARK: Offsets

    /// Whether `index` is a regular path index (8…63).
    static func isRegularPath(_ index: UInt8) -> Bool { (8...63).contains(index) }

    /// The vehicle's absolute offset measured along `index` (negative before a sub-path's start);
    /// `nil` when the path is not connected to the vehicle's path.
    func vehicleOffset(on index: UInt8) -> Int? {
        var offset = 0
        var current = index
        for _ in 0..<64 {
            if current == horizon.mainPathIndex {
                return horizon.vehicleOffset.map { $0 + offset }
            }
            guard let path = horizon.paths[current], let parent = path.parent, let branch = path.branchOffset
            else { return nil }
            offset -= branch
            current = parent
        }
        return nil
    }

    /// Unwraps a received offset on `index` against the vehicle's position there; `nil` for 8191.
    func absoluteOffset(_ offset: UInt16, on index: UInt8) -> Int? {
        let reference = vehicleOffset(on: index) ?? 0
        return PathOffset.unwrapped(offset, from: max(0, reference - configuration.unwrapLookBehind))
    }

    /// `index` and every path below it in the tree.
    func subtree(of index: UInt8) -> Set<UInt8> {
        var result: Set<UInt8> = [index]
        var grew = true
        while grew {
            grew = false
            for path in horizon.paths.values where !result.contains(path.index) {
                if let parent = path.parent, result.contains(parent) {
                    result.insert(path.index)
                    grew = true
                }
            }
        }
        return result
    }

    /// Counts a discarded message of `type`.
    mutating func discard(_ type: MessageType) {
        horizon.counters[type, default: MessageTypeCounters()].discarded += 1
    }

    /// Counts an ignored retransmission of `type`.
    mutating func ignoreRetransmission(_ type: MessageType) {
        horizon.counters[type, default: MessageTypeCounters()].retransmissionsIgnored += 1
    }
}
