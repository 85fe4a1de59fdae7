import RoadMap

/// Keeps the horizon tree up to date as matched positions arrive.
///
/// Each ``update(_:candidates:)`` either moves the vehicle along the main path (cheap: no events)
/// or, when the throttling allows, recomputes the tree: it removes what fell behind the trailing
/// length, extends every path to its look-ahead (side paths ``HorizonConfiguration/growthReach(level:)``)
/// and adds side paths at junctions coming into range. When the vehicle turns onto a side path,
/// that path becomes the main path and everything else is detached, unless the matcher is still
/// unsure just past a narrow fork (``UnsureFork``): then the vehicle stays on the main path. The
/// tree is only rebuilt from scratch (``HorizonEvent/reset``) on a discontinuity of the match or
/// when the vehicle is on none of the paths.
///
/// Deterministic: time comes from ``MatchResult/time`` only, paths are visited in identifier
/// order, and identifiers are handed out in sequence and never reused.
public final class HorizonEngine {
    /// The road graph the tree is built from.
    public let network: any RoadNetwork
    /// Look-ahead, levels, trailing length, throttling and branch model.
    public let configuration: HorizonConfiguration
    /// The danger zones the legal rules make of cameras (`nil` when no rule allows danger zones).
    let dangerZones: DangerZoneDerivation?
    /// The current tree (empty before the first on-road match and after going off road).
    public internal(set) var tree = PathTree()
    /// The vehicle's offset on the main path, metres from its start; `nil` when the tree is empty.
    public internal(set) var vehicleOffset: Double?
    /// The active route, if any.
    public private(set) var route: [DirectedLink]?
    /// Where the last update placed the vehicle: the match's position, or the matcher's state on
    /// the main path while it is unsure at a narrow fork (``UnsureFork``); `nil` when the tree is
    /// empty or the last match was not on a road.
    public private(set) var vehiclePosition: MatchedPosition?

    /// Index of the vehicle's link in the main path's links.
    var vehicleLinkIndex = 0
    /// The route changed since the last recomputation.
    var routeChanged = false
    /// The next path identifier to hand out.
    var nextPathID = 1
    /// Time and main-path offset of the last full recomputation.
    var lastRecomputation: (time: Double, offset: Double)?
    /// Whether the main path is short of its look-ahead only by the growth limit
    /// (``HorizonConfiguration/mainPathGrowthPerUpdate``), so the next update grows it on, with
    /// or without a recomputation.
    var mainPathCatchingUp = false
    /// Time and main-path offset of the vehicle at the last fix placed on the tree.
    var lastPlacement: (time: Double, offset: Double)?
    /// Set by the last update when it turned the vehicle round (see ``forwardTravel(_:)``).
    var turnRoundProgress: Double?
    /// Set by the last update when the vehicle left the main path for one of its side paths: how
    /// far ahead of the vehicle that side path branched off (see ``travelAlongPreviousMainPath(_:)``).
    var branchProgress: Double?
    /// Each directed link as placed at path offset 0, with its exit branches, for every link
    /// placed so far: ``pathLink(_:startOffset:routeIndex:)`` shifts a copy instead of reading
    /// the link, scoring its branches and filtering its features again. Three of four links placed
    /// were placed before (side paths that share roads, paths re-added after a promotion or a
    /// reset). It caches computed results, not map reads; the map does not change under the
    /// engine, and ``refreshFeatures()`` (objects laid over it changed) starts it over. Bounded: it
    /// starts over beyond 8192 links.
    var placedLinks: [DirectedLink: PathLink] = [:]
    /// Links placed on paths so far, and of those how many were not in ``placedLinks`` (read
    /// and scored anew): what a growth cost, for the benchmark's per-fix figures.
    package internal(set) var linksPlaced = 0
    package internal(set) var linksScored = 0
    /// The branch model's cul-de-sac search, shared by every junction the engine scores (each link
    /// read once, not once per junction that looks past it). Map facts only; bounded like
    /// ``placedLinks``.
    let waysOn = BranchProbabilityModel.WaysOn()
    /// For each path, the level it had and the path offset of the last junction whose side paths
    /// ``addSidePaths(to:startDistance:reach:)`` has added: the junctions up to it are not looked
    /// at again at every growth. Its children there are only ever removed behind the vehicle, with
    /// the whole path, or by a route change (which forgets the main path's entry); a promotion
    /// changes the level (U-turn side paths depend on it), which starts the path over.
    var sidePathsAdded: [PathID: (level: Int, throughOffset: Double)] = [:]
    /// The way back of each offered U-turn side path, taken when the path is added
    /// (``wayBack(from:throughLinkIndex:length:)``); entries of paths no longer in the tree are
    /// dropped once they outnumber the tree.
    var uTurnWaysBack: [PathID: [DirectedLink]] = [:]
    /// The way back from the main path's first link: the links the vehicle drove before it, last
    /// driven first, each reversed (the main path's links trimmed behind the vehicle, and the path
    /// it left at its last turn, from the junction back), up to
    /// ``HorizonConfiguration/growthReach(level:)`` of level 1; empty after a new tree, and kept
    /// only while U-turns are offered.
    var drivenBefore: [WayBackStep] = []
    /// Events of the update in progress.
    var events: [HorizonEvent] = []
    /// The events of the last ``update(_:)`` so far: all of them once it returned, and what it had
    /// changed in the tree when it threw.
    package var eventsOfUpdate: [HorizonEvent] { events }
    /// The client's choices at most-probable-path splits: incoming link → continuation.
    var chosenContinuations: [DirectedLink: DirectedLink] = [:]
    /// The registered observers, in registration order.
    var observers: [(token: HorizonObserverToken, handler: (HorizonObservation) -> Void)] = []
    /// The next observer token to hand out.
    var nextObserverToken = 1
    /// The most probable path last delivered to observers.
    var deliveredMostProbablePath: MostProbablePath?

    /// Creates an engine on `network`. The network's roads must not change under the engine; when
    /// the objects laid over them change (traffic incidents), call ``refreshFeatures()``.
    ///
    /// - Throws: ``HorizonError/invalidConfiguration(_:)`` when a setting is out of range.
    public init(network: any RoadNetwork, configuration: HorizonConfiguration = .init()) throws {
        try configuration.validate()
        self.network = network
        self.configuration = configuration
        dangerZones = DangerZoneDerivation(
            network: network, rules: configuration.safetyLocationRules, places: configuration.places)
    }

    /// Whether the vehicle currently drives along the active route.
    public var isFollowingRoute: Bool {
        guard let main = tree.mainPath, main.links.indices.contains(vehicleLinkIndex) else { return false }
        return main.links[vehicleLinkIndex].isOnRoute
    }

    /// Queries about what lies ahead on the main path, `nil` when the tree is empty.
    public var queries: HorizonQueries? {
        guard let main = tree.mainPath, let vehicleOffset else { return nil }
        return HorizonQueries(mainPath: main, vehicleOffset: vehicleOffset)
    }

    /// Sets (or clears with `nil`) the active route. The main path follows it from the next
    /// ``update(_:)`` on while the vehicle stays on it; the part of the main path ahead of the
    /// vehicle's link is then replaced (``HorizonEvent/linksRemoved(path:links:)`` at its end).
    ///
    /// - Throws: ``HorizonError/emptyRoute``, ``HorizonError/disconnectedRoute(index:from:to:)``,
    ///   ``HorizonError/routeAgainstOneway(index:link:)``, or the network's error for an unknown link.
    public func setRoute(_ route: [DirectedLink]?) throws {
        if let route {
            guard !route.isEmpty else { throw HorizonError.emptyRoute }
            var roads: [RoadLink] = []
            for (index, step) in route.enumerated() {
                let road = try network.link(step.link)
                guard road.oneway.allows(step.direction) else {
                    throw HorizonError.routeAgainstOneway(index: index, link: step)
                }
                roads.append(road)
            }
            for index in 0..<(route.count - 1)
            where roads[index].exitNode(route[index].direction)
                != roads[index + 1].entryNode(route[index + 1].direction)
            {
                throw HorizonError.disconnectedRoute(index: index, from: route[index], to: route[index + 1])
            }
        }
        self.route = route
        routeChanged = true
    }

    /// Takes the match of one fix and returns what changed in the tree, in order.
    ///
    /// `.unknown` keeps the tree as it is; `.offRoad` empties it (``HorizonEvent/reset``). Events
    /// come in this order: `reset`; path promotion (`pathRemoved` for every detached path, then
    /// `mainPathChanged`; the kept paths' levels drop by the promoted path's old level); a route
    /// change (`linksRemoved` at the end of the main path, `pathRemoved` for its side paths beyond
    /// the vehicle's link); trailing removal (`linksRemoved` at the front, `pathRemoved`); growth
    /// (`linksAdded`, and `pathAdded` + `linksAdded` for each new side path), parents before children.
    ///
    /// - Throws: ``HorizonError/invalidPosition(link:offset:time:)`` for a non-finite offset or
    ///   time, or the network's error when a link cannot be read.
    /// Registered observers (``addObserver(_:)``) receive the same changes as observations.
    ///
    /// `candidates` are the matcher's states of the fix with their probabilities
    /// (`OnlineMapMatcher.candidatePositions`), read only when the match leaves the main path at a
    /// narrow fork (``HorizonConfiguration/unsureFork``); without them the vehicle turns there.
    public func update(
        _ match: MatchResult, candidates: @autoclosure () -> [MatchedPosition] = []
    ) throws -> [HorizonEvent] {
        events = []
        turnRoundProgress = nil
        branchProgress = nil
        switch match.state {
        case .unknown:
            return []
        case .offRoad:
            vehiclePosition = nil
            if tree.mainPathID != nil { clear(); events = [.reset] }
        case .onRoad(let position):
            guard position.offset.isFinite, match.time.isFinite else {
                throw HorizonError.invalidPosition(link: position.link, offset: position.offset, time: match.time)
            }
            vehiclePosition = position
            try place(position, time: match.time, discontinuity: match.discontinuity, candidates: candidates)
        }
        notifyObservers(match)
        return events
    }

    private func place(
        _ position: MatchedPosition, time: Double, discontinuity: Bool, candidates: () -> [MatchedPosition]
    ) throws {
        guard !discontinuity, let main = tree.mainPath else {
            try rebuild(at: position)
            lastPlacement = (time, vehicleOffset ?? 0)
            try recompute(time: time)
            return
        }
        // The vehicle's link ahead on the main path, unless it lies beyond the vehicle's reach and
        // a side path holds it within reach (a main path that loops round a block holds the link
        // the vehicle turned onto again, far ahead), or a side path branching ahead of the vehicle
        // reaches it by a shorter way (the vehicle turned off before a detour the main path takes
        // to the same link: it did not drive the detour, nor pass what lies on it).
        let ahead = main.links[vehicleLinkIndex...].firstIndex { $0.link == position.link }
        // Off the vehicle's link: the next one, a side path, a new tree, or the road back (a U-turn).
        if ahead != vehicleLinkIndex { turnRoundProgress = turnRoundProgress(to: position, on: main) }
        var nearer: PathID?
        if let index = ahead {
            let offset = main.links[index].startOffset + position.offset
            if !isReachable(offset, time: time) {
                nearer = sidePath(containing: position, time: time, withinReach: true)
            } else if index == vehicleLinkIndex, let vehicleOffset, vehicleOffset >= main.links[index].startOffset {
                // Still on the vehicle's link (most fixes): no side path reaches it by a shorter way,
                // as every candidate branches at or past the vehicle, so it reaches the link no
                // sooner than `offset`. The search over every path of the tree is skipped.
                nearer = nil
            } else {
                nearer = sidePath(
                    containing: position, time: time, withinReach: true, shorterThan: offset - Self.detourMargin)
            }
        }
        // Not on the main path: a side path holding the link, where the vehicle stays on the main
        // path instead while the matcher is unsure just past a narrow fork (UnsureFork).
        let sidePath = ahead == nil ? sidePath(containing: position, time: time, withinReach: false) : nil
        let held = sidePath.flatMap { heldAtFork(position, sidePath: $0, on: main, candidates: candidates) }
        let onMain: (linkIndex: Int, position: MatchedPosition)? =
            if let held { held } else if let ahead, nearer == nil { (ahead, position) } else { nil }
        if let onMain {
            vehiclePosition = onMain.position
            moveVehicle(on: main, linkIndex: onMain.linkIndex, offset: onMain.position.offset)
            lastPlacement = (time, vehicleOffset ?? 0)
            rejoinRoute()
            if routeChanged || throttleElapsed(time: time) {
                try recompute(time: time)
            } else if mainPathCatchingUp {
                try catchUpMainPath()
            }
            return
        }
        if let sidePath = nearer ?? sidePath {
            branchProgress = branchProgress(toward: sidePath)
            promote(sidePath)
            // Holds by construction: promote keeps the path itself, and sidePath(containing:time:withinReach:)
            // chose it because it holds the link.
            let promoted = tree.paths[sidePath]!
            let index = promoted.links.firstIndex { $0.link == position.link }!
            moveVehicle(on: promoted, linkIndex: index, offset: position.offset)
            rejoinRoute()
        } else {
            try rebuild(at: position)
        }
        lastPlacement = (time, vehicleOffset ?? 0)
        try recompute(time: time)
    }

    /// How far the vehicle got along `main` (the main path before this update) when `position`
    /// lies on the reverse of one of its links (the vehicle turned round): the position reflected
    /// onto that link of `main`, minus the vehicle's offset there; of several such links (a path
    /// that comes round), the one whose reflected position is nearest the vehicle. `nil` when no
    /// link of `main` is the reverse.
    private func turnRoundProgress(to position: MatchedPosition, on main: HorizonPath) -> Double? {
        guard let vehicleOffset else { return nil }
        let reverse = position.link.reversed
        return main.links.lazy.filter { $0.link == reverse }
            .map { $0.startOffset + $0.length - min(max(position.offset, 0), $0.length) - vehicleOffset }
            .min { abs($0) < abs($1) }
    }

    /// Metres the vehicle can have driven forward along the main path held before the last
    /// ``update(_:)``, for ``RoadObjectTracker/update(mainPathObjects:vehicleOffset:travelled:travelledAlongPreviousPath:)``:
    /// `travelled` (its speed times the time between the fixes), unless that update turned the
    /// vehicle round (put it on the reverse of a link of the old main path, within `travelled`
    /// plus ``turnRoundSlack`` of where it was: a U-turn). Then it is how far the vehicle is seen to
    /// have got: its new place reflected onto the old path, minus where it was, and 0 when that
    /// lies behind. So a point object at the node where the vehicle turns round, not reached at the
    /// last fix, is not taken as passed; one the vehicle turned round beyond is.
    public func forwardTravel(_ travelled: Double) -> Double {
        turnRoundReach(travelled) ?? travelled
    }

    /// How far the vehicle got along the main path held before the last ``update(_:)`` when that
    /// update turned it round (see ``forwardTravel(_:)``); `nil` when it did not.
    func turnRoundReach(_ travelled: Double) -> Double? {
        guard let progress = turnRoundProgress, progress <= travelled + Self.turnRoundSlack else { return nil }
        return max(0, progress)
    }

    /// How far beyond what the vehicle drove (speed times time) its reflected place may lie and
    /// still be a turn round rather than a later pass of the same road, metres.
    static let turnRoundSlack = 10.0

    /// The fastest a vehicle is taken to drive, m/s (252 km/h), and the distance allowed on top
    /// for the matched position's jitter, metres.
    static let plausibleSpeed = 70.0
    static let plausibleMargin = 50.0

    /// Whether the vehicle can have reached main-path offset `offset` at `time` from where it was
    /// last placed, driving at most ``plausibleSpeed`` (plus ``plausibleMargin``).
    private func isReachable(_ offset: Double, time: Double) -> Bool {
        guard let last = lastPlacement else { return true }
        let elapsed = max(0, time - last.time)
        return offset - last.offset <= Self.plausibleSpeed * elapsed + Self.plausibleMargin
    }

    /// When the vehicle is back on a link of the active route (after a detour, or on a side path
    /// that became the main path) while the main path ahead follows the prediction, the main path
    /// is re-planned along the route at once.
    private func rejoinRoute() {
        guard let route, let main = tree.mainPath, main.links.indices.contains(vehicleLinkIndex) else { return }
        let link = main.links[vehicleLinkIndex]
        if link.routeIndex == nil, route.contains(link.link) { routeChanged = true }
    }

    private func moveVehicle(on path: HorizonPath, linkIndex: Int, offset: Double) {
        let link = path.links[linkIndex]
        vehicleLinkIndex = linkIndex
        vehicleOffset = link.startOffset + min(max(offset, 0), link.length)
    }

    private func throttleElapsed(time: Double) -> Bool {
        guard let last = lastRecomputation, let vehicleOffset else { return true }
        let elapsed = time - last.time
        let driven = abs(vehicleOffset - last.offset)
        return (elapsed >= configuration.minimumUpdateInterval || elapsed < 0)
            && driven >= configuration.minimumUpdateDistance
    }

    /// Empties the tree.
    private func clear() {
        tree = PathTree()
        chosenContinuations = [:]
        uTurnWaysBack = [:]
        drivenBefore = []
        vehicleOffset = nil
        vehicleLinkIndex = 0
        lastRecomputation = nil
        lastPlacement = nil
        mainPathCatchingUp = false
    }

    /// Starts a new tree whose main path begins at the entry of the vehicle's link.
    private func rebuild(at position: MatchedPosition) throws {
        let old = tree.mainPathID
        if old != nil { events.append(.reset) }
        clear()
        let id = takePathID()
        let first = try pathLink(position.link, startOffset: 0, routeIndex: route?.firstIndex(of: position.link))
        let path = HorizonPath(
            id: id, parent: nil, branchOffset: nil, level: 0, probability: 1,
            turnAngle: nil, links: [first])
        tree.paths[id] = path
        tree.mainPathID = id
        events.append(.pathAdded(id))
        events.append(.mainPathChanged(from: nil, to: id))
        events.append(.linksAdded(path: id, links: [first]))
        routeChanged = false
        moveVehicle(on: path, linkIndex: 0, offset: position.offset)
    }

    /// The first side path (shallowest level, then smallest identifier) holding the vehicle's
    /// link; `withinReach`: only where the vehicle can have reached it (``isReachable(_:time:)``,
    /// measured along the tree from the main path's start); `shorterThan`: only where that is less
    /// than `limit` metres and the side path's branch from the main path is not behind the vehicle.
    private func sidePath(
        containing position: MatchedPosition, time: Double, withinReach: Bool, shorterThan limit: Double? = nil
    ) -> PathID? {
        // A loop rather than filter + min: no array of copied paths, and most paths fail the
        // first test (they do not hold the link).
        var best: (level: Int, id: Int)?
        let paths = tree.paths.values
        for index in paths.indices where paths[index].parent != nil {
            // Read in place; only a path that holds the link is copied out.
            guard let link = paths[index].links.first(where: { $0.link == position.link }) else { continue }
            if let best, (best.level, best.id) < (paths[index].level, paths[index].id.rawValue) { continue }
            let path = paths[index]
            if withinReach {
                guard let offset = mainPathOffset(of: path, link.startOffset + position.offset) else { continue }
                if let limit {
                    guard offset < limit, let vehicleOffset, let branch = mainPathBranchOffset(of: path),
                        branch >= vehicleOffset
                    else { continue }
                }
                guard isReachable(offset, time: time) else { continue }
            }
            best = (path.level, path.id.rawValue)
        }
        return best.map { PathID(rawValue: $0.id) }
    }

    /// How much shorter, metres, a side path's way to the vehicle's link must be than the main
    /// path's for the vehicle to be placed on it instead (a margin over the matched offset's jitter).
    static let detourMargin = 10.0

    /// Where the level-1 ancestor of side path `path` leaves the main path (its branch offset);
    /// `nil` when a parent is missing.
    func mainPathBranchOffset(of path: HorizonPath) -> Double? {
        var path = path
        while let parentID = path.parent {
            guard let parent = tree.paths[parentID] else { return nil }
            if parent.parent == nil { return path.branchOffset }
            path = parent
        }
        return nil
    }

    /// Offset `offset` of `path` measured from the main path's start along the tree: a side path's
    /// offsets count from its branch point on its parent. `nil` when a parent is missing.
    private func mainPathOffset(of path: HorizonPath, _ offset: Double) -> Double? {
        var path = path
        var result = offset
        while let parentID = path.parent {
            guard let parent = tree.paths[parentID] else { return nil }
            result += path.branchOffset ?? 0
            path = parent
        }
        return result
    }

    /// Makes `id` the main path; everything outside its subtree is removed.
    private func promote(_ id: PathID) {
        // Only offered U-turns go back: without them a turn costs nothing more.
        drivenBefore = configuration.branchModel.offersUTurns ? wayBackBefore(id) : []
        let keep = Set(tree.subtree(of: id))
        for removed in tree.paths.removeAll(except: keep) { events.append(.pathRemoved(removed)) }
        guard var main = tree.paths[id] else { return }
        let levelShift = main.level
        for kept in keep { tree.paths[kept]?.level -= levelShift }
        main.level = 0
        main.parent = nil
        main.branchOffset = nil
        main.probability = 1
        main.turnAngle = nil
        tree.paths[id] = main
        events.append(.mainPathChanged(from: tree.mainPathID, to: id))
        tree.mainPathID = id
        lastRecomputation = nil
    }

    /// A new path identifier.
    func takePathID() -> PathID {
        defer { nextPathID += 1 }
        return PathID(rawValue: nextPathID)
    }

    /// `link` placed on a path at `startOffset`, with its exit branches.
    func pathLink(_ link: DirectedLink, startOffset: Double, routeIndex: Int?) throws -> PathLink {
        linksPlaced += 1
        if let placed = placedLinks[link] { return placed.shifted(by: startOffset, routeIndex: routeIndex) }
        linksScored += 1
        let road = try legalRoad(link.link)
        let branches =
            try configuration.branchModel.branches(after: link, road: road, in: network, waysOn: waysOn)
            + (configuration.keepsZeroProbabilityPaths ? forbiddenContinuations(after: link) : [])
        var placed = PathLink(
            road: road, direction: link.direction, startOffset: 0, exitBranches: branches, routeIndex: nil)
        // The legal filter keeps a subset, in order: set only when it dropped one (setting the list
        // builds the link's box of lists again, and most links have no feature at all).
        let allowed = configuration.safetyLocationRules.allowedFeatures(of: placed, places: configuration.places)
        if allowed.count != placed.features.count { placed.features = allowed }
        if placedLinks.count >= 8192 { placedLinks.removeAll(keepingCapacity: true) }
        if waysOn.lengths.count >= 32768 { waysOn.lengths.removeAll(keepingCapacity: true) }
        if waysOn.entryBearings.count >= 32768 { waysOn.entryBearings.removeAll(keepingCapacity: true) }
        placedLinks[link] = placed
        return placed.shifted(by: startOffset, routeIndex: routeIndex)
    }

    /// Full recomputation: route change, trailing removal, growth.
    private func recompute(time: Double) throws {
        if routeChanged { applyRouteChange() }
        trimBehindVehicle()
        try grow()
        forgetPassedChoices()
        if let vehicleOffset { lastRecomputation = (time, vehicleOffset) }
    }
}
