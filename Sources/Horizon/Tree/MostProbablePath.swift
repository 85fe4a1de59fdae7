import RoadMap

/// The main path ahead of the vehicle as a client sees it: its links from the vehicle's link on,
/// and the splits where another continuation is nearly as probable (Mapbox's "several MPPs").
public struct MostProbablePath: Hashable, Sendable {
    /// The main path.
    public var path: PathID
    /// The directed links of the main path from the vehicle's link to its end, in driving order.
    public var links: [DirectedLink]
    /// The junctions ahead where an alternative is within the tolerance of the main path's
    /// continuation, nearest first.
    public var splits: [MostProbablePathSplit]

    /// Creates a most probable path.
    public init(path: PathID, links: [DirectedLink], splits: [MostProbablePathSplit]) {
        self.path = path
        self.links = links
        self.splits = splits
    }
}

/// A junction ahead on the main path where the prediction is unsure: at least one other legal
/// continuation is at most ``HorizonConfiguration/mostProbablePathTolerance`` less probable than
/// the one the main path takes. The client chooses (``HorizonEngine/choose(_:)``), or keeps the
/// main path.
public struct MostProbablePathSplit: Hashable, Sendable {
    /// The main-path link that ends at the junction.
    public var incoming: DirectedLink
    /// Offset of the junction on the main path, metres.
    public var offset: Double
    /// Metres from the vehicle to the junction along the main path.
    public var distance: Double
    /// The continuation the main path takes.
    public var taken: MostProbablePathAlternative
    /// The nearly as probable continuations, most probable first.
    public var alternatives: [MostProbablePathAlternative]

    /// Creates a split.
    public init(
        incoming: DirectedLink, offset: Double, distance: Double, taken: MostProbablePathAlternative,
        alternatives: [MostProbablePathAlternative]
    ) {
        self.incoming = incoming
        self.offset = offset
        self.distance = distance
        self.taken = taken
        self.alternatives = alternatives
    }
}

/// One continuation at a ``MostProbablePathSplit``.
public struct MostProbablePathAlternative: Hashable, Sendable {
    /// The directed link the continuation enters.
    public var link: DirectedLink
    /// Its branch probability, `0...1`.
    public var probability: Double
    /// Turn onto it, degrees, positive right.
    public var turnAngle: Double
    /// The side path of the tree that follows it (`nil` for the main path's own continuation, or
    /// when the tree has no side path there, e.g. ``HorizonConfiguration/maximumLevel`` 0).
    public var sidePath: PathID?

    /// Creates an alternative.
    public init(link: DirectedLink, probability: Double, turnAngle: Double, sidePath: PathID?) {
        self.link = link
        self.probability = probability
        self.turnAngle = turnAngle
        self.sidePath = sidePath
    }
}

extension HorizonEngine {
    /// The main path ahead of the vehicle with its unsure splits, `nil` when the tree is empty.
    ///
    /// A split is a junction ahead of the vehicle on the main path, not on the active route's
    /// planned part, where a legal continuation with probability > 0 is at most
    /// ``HorizonConfiguration/mostProbablePathTolerance`` (absolute, default 0.05) below the
    /// continuation the main path takes.
    public var mostProbablePath: MostProbablePath? {
        guard let mainID = tree.mainPathID, let main = tree.paths[mainID], let vehicleOffset,
            main.links.indices.contains(vehicleLinkIndex)
        else { return nil }
        let tolerance = configuration.mostProbablePathTolerance
        let children = tree.children(of: mainID)
        var splits: [MostProbablePathSplit] = []
        for index in vehicleLinkIndex..<max(vehicleLinkIndex, main.links.count - 1) {
            let junction = main.links[index]
            let next = main.links[index + 1]
            if next.routeIndex != nil { continue }
            guard let taken = junction.exitBranches.first(where: { $0.link == next.link }) else { continue }
            let near = junction.exitBranches.filter {
                $0.link != next.link && $0.probability > 0 && taken.probability - $0.probability <= tolerance
            }
            guard !near.isEmpty else { continue }
            let offset = junction.endOffset
            let alternatives = near.map { branch in
                MostProbablePathAlternative(
                    link: branch.link, probability: branch.probability, turnAngle: branch.turnAngle,
                    sidePath: children.first {
                        $0.links.first?.link == branch.link && abs(($0.branchOffset ?? -1) - offset) < 1e-6
                    }?.id)
            }
            splits.append(
                MostProbablePathSplit(
                    incoming: junction.link, offset: offset, distance: offset - vehicleOffset,
                    taken: MostProbablePathAlternative(
                        link: taken.link, probability: taken.probability, turnAngle: taken.turnAngle,
                        sidePath: nil),
                    alternatives: alternatives))
        }
        return MostProbablePath(
            path: mainID, links: main.links[vehicleLinkIndex...].map(\.link), splits: splits)
    }

    /// Makes the main path take `alternative` at `split` instead of its own continuation (the
    /// client's choice between nearly equal paths). The main path ahead of the vehicle's link is
    /// re-planned on the next ``update(_:)``, like a new route; the choice holds until the vehicle
    /// passes the junction or the tree is rebuilt. An active route's planned part wins over it.
    ///
    /// - Throws: ``HorizonError/notAContinuation(incoming:link:)`` when `alternative` is not a
    ///   legal continuation at the split's junction.
    public func choose(_ alternative: MostProbablePathAlternative, at split: MostProbablePathSplit) throws {
        let branches = try configuration.branchModel.branches(after: split.incoming, in: network)
        guard branches.contains(where: { $0.link == alternative.link }) else {
            throw HorizonError.notAContinuation(incoming: split.incoming, link: alternative.link)
        }
        chosenContinuations[split.incoming] = alternative.link
        routeChanged = true
    }
}

extension HorizonEngine {
    /// Drops the client's choices whose junction is no longer ahead on the main path (passed, or
    /// on a path that was detached).
    func forgetPassedChoices() {
        guard !chosenContinuations.isEmpty else { return }
        guard let main = tree.mainPath, main.links.indices.contains(vehicleLinkIndex) else {
            chosenContinuations = [:]
            return
        }
        let ahead = Set(main.links[vehicleLinkIndex...].map(\.link))
        chosenContinuations = chosenContinuations.filter { ahead.contains($0.key) }
    }
}
