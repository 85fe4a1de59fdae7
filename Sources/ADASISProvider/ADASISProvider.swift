import ADASISv2
import GNSS
import Horizon
import RoadMap

/// Turns the horizon tree and the vehicle's position into the ADASIS v2 message stream.
///
/// Feed it every matched fix with ``ingest(fix:match:tree:vehicleOffset:events:routeActive:)``
/// (after the ``HorizonEngine`` update), and call ``tick(at:)`` every
/// ``ProviderConfiguration/tickInterval`` seconds: it returns the frames to put on the bus.
/// It allocates path indices (main path 8, sub-paths 9…63, never reusing an index a receiver may
/// still hold), sends each path's SEGMENTs, STUBs and profiles ahead of the vehicle up to the
/// level's send radius, retransmits the nearby horizon, sends changed content with Update = 1,
/// POSITION at its rate with dead reckoning between fixes and a truthful PositionAge, and
/// META-DATA, all within the bus budget. Offsets wrap modulo 8191 (the transmitted window of
/// trailing length + send radius stays far below 8191 m, so receivers unwrap them unambiguously).
///
/// Deterministic: time comes only from the caller. It never opens a socket.
public final class ADASISProvider {
    /// The configuration in force.
    public let configuration: ProviderConfiguration
    /// What of ``configuration``'s message selection the paths' content needs.
    let contentSelection: ContentSelection
    /// What was sent, dropped, updated.
    public internal(set) var counters = ProviderCounters()
    let network: any RoadNetwork

    var scheduler: FrameScheduler
    var allocator: PathIndexAllocator
    /// The path indices a receiver may still hold, from the frames sent.
    var receiverTree = ReceiverTreeModel()
    var indexOfPath = PathIndexAssignment()
    var sentUpTo: [PathID: Double] = [:]
    /// Side paths whose opening STUB has gone out (been released), so a receiver holds them;
    /// alternative POSITIONs name only these.
    var announcedPaths: Set<PathID> = []
    var probabilityOfPath: [PathID: Double] = [:]
    var ledger = ContentLedger()
    /// Per path, the offset from which content may have changed since it was sent (from the events).
    var dirtyFrom: [PathID: Double] = [:]
    /// Paths whose road objects changed in place (``contentChanged(tree:)``): marks gone from them are withdrawn.
    var objectsChanged: Set<PathID> = []
    var tree = PathTree() {
        didSet { mainPath = tree.mainPath }
    }
    /// The main path of ``tree``, kept as the tree is set: the ticks read it several times each,
    /// and a lookup in the tree copied the path out and destroyed the copy every time.
    private(set) var mainPath: HorizonPath?
    /// Where each path of the last tree hung (parent, branch offset), kept by ``releaseTree()``
    /// for the next ``ingest(fix:match:tree:vehicleOffset:events:routeActive:)`` to compare the
    /// new tree with; `nil` while the provider holds that tree itself.
    var releasedPlacements: [PathID: PathPlacement]?
    var match = MatchResult(time: 0, state: .unknown, discontinuity: false)
    var fix: GNSSFix?
    var fixOffset: Double?
    /// The matcher's candidates for the last fix on parallel roads of side paths, placed on their
    /// paths once per fix (``offerPositionCandidates(_:)``).
    var positionCandidates: [PlacedPositionCandidate] = []
    var routeActive = false
    var startTime: Double?
    var nextPosition = -Double.infinity
    var nextMetaData = -Double.infinity
    /// META-DATA for where the vehicle is: the configured one with the country, driving side and
    /// region of the link under the vehicle (the last known while that is unknown).
    var placeMetaData: MetaDataMessage
    /// The link country and region codes ``placeMetaData`` was last worked out for: the same
    /// codes give the same message, so the tables are read only when the vehicle enters a link
    /// with other codes (looking both up at every tick was ≈ 0.7 k instructions a tick).
    var placeCodes: (country: UInt16, region: UInt16)?
    var nextRetransmission = -Double.infinity
    /// Where the next retransmission round resumes in its list of messages (``retransmitNearby``).
    var retransmissionResume = 0
    /// Each side path's retransmission messages, packed from its atoms at the ledger revision
    /// given: repeated every round, they are packed again only when the path's atoms changed.
    var retransmissionPacks: [UInt8: (revision: Int, messages: [ADASISMessage])] = [:]
    var lastMiniSegment: SegmentMessage?
    /// The paths of ``tree`` in the order the ticks visit them (rebuilt when a tree arrives).
    var visitOrder = PathVisitOrder()
    /// Paths that sent a stub-only STUB for a side path because no index was free, with the
    /// offsets of those junctions: when indices free up, their STUBs are sent again (Update) with
    /// the index, and the side path's content follows.
    var starvedJunctions: [PathID: Set<Double>] = [:]
    /// During a revival's tick, the side paths it may give an index to (``revivalCandidates``).
    var revivalAdmitted: Set<PathID>?
    /// No revival before this time: one a second at most.
    var nextRevival = -Double.infinity
    /// Whether ``tree`` changed since the last ``retireVanishedPaths(at:)``.
    var treeChangedSinceRetire = true
    /// Walks the tree at every tick, even when it is settled, and starts every fix's tree with no
    /// path resting (for this package's tests: the reference the frames must be the same as).
    package var walksTreeEveryTick = false
    /// How many ticks walked the tree (for this package's tests and `adasis-bench`).
    package internal(set) var treeWalks = 0
    /// The segments of the link POSITION last placed the vehicle on (its bearing at the vehicle).
    var positionLinkBearings: LinkSegmentBearings?
    /// The traffic speeds the traffic-speed profile sends (``setTrafficSpeeds(_:)``); `nil` while
    /// no traffic layer was ever active, and then the profile is not sent.
    public internal(set) var trafficSpeeds: TrafficSpeedTable?

    /// Creates a provider reading link geometry and branch attributes from `network`.
    public init(configuration: ProviderConfiguration, network: any RoadNetwork) {
        self.configuration = configuration
        contentSelection = ContentSelection(configuration.messages, objectTypes: configuration.roadObjectTypes)
        self.network = network
        placeMetaData = configuration.metaData
        scheduler = FrameScheduler(configuration: configuration)
        allocator = PathIndexAllocator(
            reuseDelay: configuration.pathIndexReuseDelay,
            droppedReuseDelay: configuration.pathIndexReuseDelayAfterReRoot)
    }

    /// Takes the result of one fix: the match and the horizon engine's tree after its update.
    public func ingest(
        fix: GNSSFix?, match: MatchResult, tree: PathTree, vehicleOffset: Double?,
        events: [HorizonEvent], routeActive: Bool
    ) {
        self.fix = fix
        self.match = match
        positionCandidates = []
        let released = releasedPlacements
        releasedPlacements = nil
        markChanges(
            events, oldPlacement: { released?[$0] ?? self.tree.paths[$0].map(PathPlacement.init) }, new: tree,
            routeChanged: routeActive != self.routeActive)
        self.tree = tree
        if !walksTreeEveryTick, routeActive == self.routeActive, Self.keepsPaths(events),
            visitOrder.entries.first?.id == tree.mainPathID
        {
            // The same paths hang where they did (most fixes: the vehicle drove on, paths grew):
            // the visit order stands, and a side path rests on unless it grew or what it sent changed.
            for event in events {
                if case .linksAdded(let id, _) = event, id != tree.mainPathID { visitOrder.wake(id) }
            }
            for id in dirtyFrom.keys { visitOrder.wake(id) }
        } else {
            visitOrder = PathVisitOrder(tree: tree)
        }
        treeChangedSinceRetire = true
        self.fixOffset = vehicleOffset
        if events.contains(.reset) {
            counters.newMainPaths += 1
            scheduler.discardHorizon()
        }
        self.routeActive = routeActive
    }

    /// Lets go of the last fix's tree before the engine updates it, keeping only where its paths
    /// hung (what ``ingest(fix:match:tree:vehicleOffset:events:routeActive:)`` compares the next
    /// tree with). With no other copy of the engine's tree, the engine grows its paths in place
    /// instead of copying each one it extends. Call `ingest` before the next ``tick(at:)``: until
    /// then the provider holds no tree. ``HorizonPipeline/process(_:)`` does both.
    package func releaseTree() {
        // Read in place: mapValues copied every path into its closure (the standard library's
        // unspecialised mapValues, through the runtime's generic copy).
        var placements = [PathID: PathPlacement](minimumCapacity: tree.paths.count)
        let paths = tree.paths.values
        for index in paths.indices { placements[paths[index].id] = PathPlacement(paths[index]) }
        releasedPlacements = placements
        tree = PathTree()
    }

    /// Forgets everything sent: the next ticks start a fresh horizon on new path indices (after
    /// the CAN interface came back, or a receiver restarted).
    public func restartHorizon(at time: Double) {
        for (_, index) in indexOfPath.indices { allocator.release(index, at: time) }
        indexOfPath = PathIndexAssignment()
        sentUpTo = [:]
        probabilityOfPath = [:]
        ledger.removeAll()
        dirtyFrom = [:]
        starvedJunctions = [:]
        objectsChanged = []
        visitOrder.wakeAll()
        lastMiniSegment = nil
        retransmissionResume = 0
        scheduler.discardHorizon()
        counters.newMainPaths += 1
    }

    /// Counts a frame the sender could not transmit (TX queue full, interface down).
    public func senderDropped(_ frame: ProviderFrame) {
        counters.framesDroppedBySender[frame.message.type, default: 0] += 1
    }

    /// Time of the last ``tick(at:)``.
    public private(set) var lastTickTime: Double?

    /// Continues the stream of the provider this one replaces (a configuration reload, a new time
    /// line): every path index `previous` held or was resting is resting here, so a receiver never
    /// sees an index reused for different content, and each message type's cyclic counter goes on
    /// where it stopped, so receivers see no gap.
    public func continueStream(from previous: ADASISProvider) {
        scheduler.counters = previous.scheduler.counters
        let time = previous.lastTickTime ?? 0
        for (index, releasedAt) in previous.allocator.unavailable(at: time) { allocator.rest(index, since: releasedAt) }
        receiverTree = previous.receiverTree
        lastTickTime = max(lastTickTime ?? time, time)
    }

    /// Frames waiting for bus budget (for this package's tests).
    package var queuedFrames: Int { scheduler.queuedCount }
    /// The path index the provider gave engine path `id` (its STUB was sent), if any.
    package func pathIndex(of id: PathID) -> UInt8? { indexOfPath[id] }

    /// The frames to send at `time`.
    public func tick(at time: Double) -> [ProviderFrame] {
        let startTime = self.startTime ?? time
        self.startTime = startTime
        lastTickTime = time
        let selection = configuration.messages
        let placeChanged = updatePlaceMetaData(at: time)
        if selection.sends(.metaData), time >= nextMetaData || placeChanged {
            scheduler.enqueue(.metaData(placeMetaData), priority: .vehicle, counters: &counters)
            let elapsed = time - startTime
            nextMetaData =
                time
                + (elapsed < configuration.metaDataStartupDuration
                    ? configuration.metaDataStartupInterval : configuration.metaDataInterval) - 1e-9
        }
        let stale = fix.map { time - $0.time > configuration.positionStaleAfter } ?? true
        if stale && !tree.paths.isEmpty {
            tree = PathTree()
            announcedPaths = []
            visitOrder = PathVisitOrder()
            treeChangedSinceRetire = true
            fixOffset = nil
        }
        let vehicle = deadReckonedOffset(at: time)
        if selection.currentLinkOnly {
            sendCurrentLinkSegment(vehicle: vehicle, time: time)
        } else {
            retireVanishedPaths(at: time)
            if let vehicle { sendHorizon(vehicle: vehicle, time: time) }
        }
        if selection.sends(.position), time >= nextPosition {
            let primary = positionMessage(at: time, vehicle: stale ? nil : vehicle)
            scheduler.enqueue(.position(primary), priority: .vehicle, counters: &counters)
            if !stale, let vehicle {
                for alternative in alternativePositionMessages(vehicle: vehicle, primary: primary) {
                    scheduler.enqueue(.position(alternative), priority: .vehicle, counters: &counters)
                }
            }
            nextPosition = (nextPosition.isFinite ? nextPosition : time) + configuration.positionInterval
            if nextPosition <= time { nextPosition = time + configuration.positionInterval }
            nextPosition -= 1e-9
        }
        let frames = scheduler.release(at: time, counters: &counters)
        for frame in frames {
            receiverTree.apply(frame.message)
            if case .stub(let stub) = frame.message,
                let id = indexOfPath.path(holding: stub.subPathIndex)
            {
                announcedPaths.insert(id)
            }
        }
        return frames
    }

    /// Points ``placeMetaData`` at the country and region of the link the vehicle is on at `time`;
    /// `true` when they changed (the vehicle crossed a border), so META-DATA goes out at once.
    func updatePlaceMetaData(at time: Double) -> Bool {
        guard let fix, time - fix.time <= configuration.positionStaleAfter,
            let vehicle = deadReckonedOffset(at: time), let main = mainPath,
            let index = main.linkIndex(at: vehicle)
        else { return false }
        let attributes = main.links[index].attributes
        if let placeCodes, placeCodes == (attributes.countryCode, attributes.regionCode) { return false }
        placeCodes = (attributes.countryCode, attributes.regionCode)
        guard let country = configuration.places.country(attributes.countryCode) else { return false }
        var message = placeMetaData
        message.countryCode = country.numericCode
        message.drivingSide = country.drivingSide == .left ? .left : .right
        message.regionCode = configuration.places.region(attributes.regionCode)?.wireCode ?? 0
        guard message != placeMetaData else { return false }
        placeMetaData = message
        counters.metaDataPlaceChanges += 1
        return true
    }

    /// The vehicle's offset on the main path at `time`: the matched offset moved on by the fix's
    /// speed since the fix, capped at the end of the path.
    func deadReckonedOffset(at time: Double) -> Double? {
        guard let fixOffset, let main = mainPath else { return nil }
        let elapsed = max(0, time - (fix?.time ?? time))
        let speed = max(0, fix?.speed ?? 0)
        return min(fixOffset + speed * elapsed, main.endOffset)
    }

    /// Whether `events` leave every path of the tree where it hung, with the same parent and
    /// junction: no path added, removed or promoted, no new tree (links may come and go at a
    /// path's ends).
    static func keepsPaths(_ events: [HorizonEvent]) -> Bool {
        !events.contains {
            switch $0 {
            case .reset, .pathAdded, .pathRemoved, .mainPathChanged: true
            case .linksAdded, .linksRemoved: false
            }
        }
    }

    /// Records from the engine's events where already-sent content may have changed: the junction
    /// of a side path added or removed (its STUB now opens or no longer opens a sub-path), the end
    /// of a path whose continuation was replaced, everything when a route was set or cleared.
    func markChanges(
        _ events: [HorizonEvent], oldPlacement: (PathID) -> PathPlacement?, new: PathTree, routeChanged: Bool
    ) {
        func mark(_ id: PathID?, _ offset: Double?) {
            guard let id, let offset, new.paths[id] != nil else { return }
            dirtyFrom[id] = min(dirtyFrom[id] ?? .infinity, offset - 0.5)
        }
        if routeChanged { for id in new.paths.keys { mark(id, -.infinity) } }
        for event in events {
            switch event {
            case .pathAdded(let id):
                mark(new.paths[id]?.parent, new.paths[id]?.branchOffset)
            case .pathRemoved(let id):
                let old = oldPlacement(id)
                mark(old?.parent, old?.branchOffset)
            case .linksRemoved(let id, let links):
                // Removed from the end (a new continuation): the junction where they started changed.
                if let first = links.first, let path = new.paths[id], first.startOffset >= path.endOffset - 0.5 {
                    mark(id, first.startOffset)
                }
            case .reset, .linksAdded, .mainPathChanged:
                break
            }
        }
    }

    /// The road link `id` from the network, `nil` when it cannot be read. Not cached here: the
    /// map's own cache (``MapFile``) is the one cache of map reads.
    func roadLink(_ id: LinkID) -> RoadLink? {
        try? network.link(id)
    }
}

/// Where a path hangs in its tree: its parent and the offset on the parent where it branches off
/// (both `nil` for a main path).
struct PathPlacement {
    /// The parent path.
    var parent: PathID?
    /// The junction's offset on the parent.
    var branchOffset: Double?

    /// The placement of `path`.
    init(_ path: borrowing HorizonPath) {
        parent = path.parent
        branchOffset = path.branchOffset
    }
}
