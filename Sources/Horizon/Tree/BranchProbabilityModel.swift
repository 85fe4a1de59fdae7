import Foundation
import RoadMap

/// One legal way to continue at a junction, with how likely the driver takes it.
public struct JunctionBranch: Hashable, Sendable {
    /// The directed link the vehicle enters.
    public var link: DirectedLink
    /// Probability of this continuation among all legal continuations of the junction, `0...1`;
    /// the probabilities of one junction add up to 1.
    public var probability: Double
    /// Turn from the incoming road, degrees in `(-180, 180]`: 0 straight on, positive right
    /// (clockwise), negative left, 180 a U-turn.
    public var turnAngle: Double
    /// Whether this continuation is the incoming link driven back (offered only at a dead end).
    public var isUTurn: Bool
    /// The road entered, as a STUB describes it; `nil` when the branch was made without it (a
    /// consumer then reads ``link`` from the map). A copy of what the map says of ``link``, so
    /// it takes no part in equality or hashing.
    public var road: BranchRoad?

    /// Creates a branch.
    public init(
        link: DirectedLink, probability: Double, turnAngle: Double, isUTurn: Bool, road: BranchRoad? = nil
    ) {
        self.link = link
        self.probability = probability
        self.turnAngle = turnAngle
        self.isUTurn = isUTurn
        self.road = road
    }

    /// Branches are equal when they enter the same link with the same probability, turn and kind.
    public static func == (lhs: JunctionBranch, rhs: JunctionBranch) -> Bool {
        lhs.link == rhs.link && lhs.probability == rhs.probability && lhs.turnAngle == rhs.turnAngle
            && lhs.isUTurn == rhs.isUTurn
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(link)
        hasher.combine(probability)
        hasher.combine(turnAngle)
        hasher.combine(isUTurn)
    }
}

/// What a STUB tells of the road a branch enters, taken from the map when the branch is scored, so
/// that sending a junction needs no map read per branch.
public struct BranchRoad: Hashable, Sendable {
    /// OSM highway class (the functional road class follows from it).
    public var highway: HighwayClass
    /// Form of way.
    public var formOfWay: FormOfWay
    /// Lanes in the direction the branch drives, `nil` when unknown.
    public var lanes: UInt8?
    /// Lanes in the opposite direction: 0 on a oneway road, `nil` when unknown.
    public var oppositeLanes: UInt8?

    /// The road `link` driven in `direction`.
    public init(_ link: RoadLink, _ direction: LinkDirection) {
        highway = link.highway
        formOfWay = link.formOfWay
        lanes = link.attributes(direction).lanes
        oppositeLanes = link.oppositeLanes(direction)
    }
}

extension RoadLink {
    /// Lanes against `direction`: 0 on a oneway road, `nil` when unknown.
    func oppositeLanes(_ direction: LinkDirection) -> UInt8? {
        oneway == .no ? attributes(direction.reversed).lanes : 0
    }
}

/// The model that gives each legal continuation at a junction its probability.
///
/// **Legality first.** Only the continuations ``RoadNetwork/successors(of:)`` returns are
/// considered: it already drops links whose oneway forbids entering them and manoeuvres a turn
/// restriction forbids (`no_*`, or everything but the `only_*` target). The U-turn (the incoming
/// link driven back) is dropped too, unless it is the only legal continuation (a dead end), where it
/// gets probability 1, or ``offersUTurns`` asks for it (probability 0, listed last). Illegal manoeuvres are never offered, not even with a small probability.
///
/// **Weights.** Each remaining continuation `c` gets the weight
///
///     w(c) = angle(θ) · class(Δ) · ramp · continuity · lanes
///
/// - `angle(θ) = angleFloor + (1 − angleFloor) · ((1 + cos θ) / 2)²` with θ the turn angle:
///   1 straight on, ≈ 0.33 for a right-angle turn, `angleFloor` (0.1) for a hairpin;
/// - `class(Δ) = classStepFactor^Δ` (0.5^Δ) with Δ the difference of functional road classes
///   (1 motorway … 6 residential/service) between the incoming and the candidate road;
/// - `ramp = rampEntryFactor` (0.5) when a non-ramp road leaves onto a `*_link` ramp, else 1;
/// - `continuity = nameContinuityFactor` (2) when the candidate carries the incoming road's
///   name or ref, else 1;
/// - `lanes = 1 + laneStepFactor · (min(lanes, 4) − 1)` (0.15 per extra lane in the driving
///   direction), 1 when the lane count is unknown;
/// - `through = throughRoadFactor` (2) for the through road of a T-junction: of exactly two
///   continuations, the one within `throughRoadDeviation` (30°) of straight on while the other
///   turns off by 60° or more, so the through road keeps the main path against a side road of a
///   higher class or with the incoming name;
/// - `deadEnd = deadEndFactor` (0.02) for a continuation whose every way on ends within
///   `deadEndReach` (120 m): a cul-de-sac, entered by drivers bound for it and by none going on,
///   so the main path keeps to the road that goes somewhere. Only at junctions (two or more ways
///   on); the cul-de-sac stays a side path.
///
/// **Probabilities** are the weights normalised to sum to 1. Every branch keeps its own
/// probability, so nearly equal continuations (a symmetric fork) both show about one half; the
/// main path follows the most probable one (ties: smaller absolute turn angle, then the smaller
/// directed link), side paths carry the others. `Docs/horizon-model.md` explains the choices.
public struct BranchProbabilityModel: Hashable, Sendable {
    /// Weight of the sharpest turn relative to straight on, `0...1`.
    public var angleFloor: Double
    /// Factor per functional-road-class step between incoming and candidate road.
    public var classStepFactor: Double
    /// Factor for leaving a non-ramp road onto a ramp.
    public var rampEntryFactor: Double
    /// Factor for a candidate that continues the incoming road's name or ref.
    public var nameContinuityFactor: Double
    /// Weight added per lane beyond the first (up to four lanes).
    public var laneStepFactor: Double
    /// Factor for the through road of a T-junction: at a junction of three roads where one
    /// continuation goes on within ``throughRoadDeviation`` of straight and the other turns off
    /// by at least twice that, the straight one is the through road and keeps the main path.
    public var throughRoadFactor: Double
    /// Largest turn, degrees, of the through road at a T-junction (default 30).
    public var throughRoadDeviation: Double
    /// Factor for a continuation whose every way on ends within ``deadEndReach`` (a cul-de-sac),
    /// `0...1`; 1 turns the rule off.
    public var deadEndFactor: Double
    /// How far from the junction, metres, every way on along a continuation must end for it to
    /// be a cul-de-sac (default 120): a way that goes on further leads somewhere.
    public var deadEndReach: Double
    /// Whether a legal U-turn at a junction (the incoming link driven back) is offered as a
    /// continuation with probability 0, as HERE does on request, so side paths cover drivers who
    /// turn round and the client can filter them out; also where a two-way road goes on only as a
    /// one-way road (the last place to turn back before it), not where a road merely continues.
    /// Off by default: the main path never takes it, and each one costs a STUB and a side path on
    /// the bus.
    public var offersUTurns: Bool

    /// Creates a model; the defaults are the documented ones.
    public init(
        angleFloor: Double = 0.1, classStepFactor: Double = 0.5, rampEntryFactor: Double = 0.5,
        nameContinuityFactor: Double = 2, laneStepFactor: Double = 0.15, throughRoadFactor: Double = 2,
        throughRoadDeviation: Double = 30, deadEndFactor: Double = 0.02, deadEndReach: Double = 120,
        offersUTurns: Bool = false
    ) {
        self.deadEndFactor = deadEndFactor
        self.deadEndReach = deadEndReach
        self.throughRoadFactor = throughRoadFactor
        self.throughRoadDeviation = throughRoadDeviation
        self.angleFloor = angleFloor
        self.classStepFactor = classStepFactor
        self.rampEntryFactor = rampEntryFactor
        self.nameContinuityFactor = nameContinuityFactor
        self.laneStepFactor = laneStepFactor
        self.offersUTurns = offersUTurns
    }

    /// The unnormalised weight of continuing from `incoming` onto `candidate` with turn `turnAngle`.
    public func weight(
        from incoming: RoadLink, to candidate: RoadLink, direction: LinkDirection,
        turnAngle: Double
    ) -> Double {
        let cosine = cos(turnAngle * .pi / 180)
        let straightness = (1 + cosine) / 2
        let angle = angleFloor + (1 - angleFloor) * straightness * straightness
        let classSteps = abs(Int(incoming.highway.functionalClass) - Int(candidate.highway.functionalClass))
        let roadClass = pow(classStepFactor, Double(classSteps))
        let ramp = (!incoming.highway.isLink && candidate.highway.isLink) ? rampEntryFactor : 1
        let sameName = incoming.name.map { !$0.isEmpty && $0 == candidate.name } ?? false
        let sameRef = incoming.ref.map { !$0.isEmpty && $0 == candidate.ref } ?? false
        let continuity = (sameName || sameRef) ? nameContinuityFactor : 1
        let lanes = candidate.attributes(direction).lanes.map { 1 + laneStepFactor * Double(min(Int($0), 4) - 1) } ?? 1
        return angle * roadClass * ramp * continuity * max(lanes, 1)
    }

    /// The index of the continuation that carries the through road of a T-junction (two
    /// continuations: one within ``throughRoadDeviation`` of straight on, the other turning off
    /// by at least twice as much), `nil` elsewhere.
    func throughRoad(_ angles: [Double]) -> Int? {
        guard angles.count == 2 else { return nil }
        let straight = abs(angles[0]) <= abs(angles[1]) ? 0 : 1
        let straightTurn = abs(angles[straight]), stemTurn = abs(angles[1 - straight])
        guard straightTurn <= throughRoadDeviation, stemTurn >= 2 * throughRoadDeviation else { return nil }
        return straight
    }

    /// The longest way on from the start of `link` (`length` metres long when known): the link and,
    /// U-turns aside, the longest way on after it; `.infinity` once it passes ``deadEndReach`` or
    /// meets a loop (either way it leads somewhere). Depth first, stopping at the first way past
    /// the reach, so a through road is found after a few links; `known` keeps every result, so the
    /// junctions along a path share the search (each link is read once).
    func longestWayOn(
        _ link: DirectedLink, length: Double? = nil, known: WaysOn, in network: any RoadNetwork
    ) throws -> Double {
        if let found = known.lengths[link] { return found < 0 ? .infinity : found }
        let own = try length ?? network.link(link.link).length
        guard own <= deadEndReach else {
            known.lengths[link] = .infinity
            return .infinity
        }
        known.lengths[link] = -1  // being searched: met again, it closes a loop
        var longest = 0.0
        do {
            let reversed = link.reversed
            for next in try network.successors(of: link) where next != reversed {
                longest = max(longest, try longestWayOn(next, known: known, in: network))
                if own + longest > deadEndReach { break }
            }
        } catch {
            known.lengths[link] = nil
            throw error
        }
        let total = own + longest > deadEndReach ? .infinity : own + longest
        known.lengths[link] = total
        return total
    }

    /// Whether every way on from the start of `link` (`length` metres long) ends within
    /// ``deadEndReach``: from the map when it stores the longest way on
    /// (``RoadNetwork/longestWayOn(_:)``, a lookup), else by ``longestWayOn(_:length:known:in:)``.
    func endsWithinReach(
        _ link: DirectedLink, length: Double, known: WaysOn, in network: any RoadNetwork
    ) throws -> Bool {
        if deadEndReach <= LongestWaysOn.storedLimit, let stored = try network.longestWayOn(link) {
            return stored <= deadEndReach
        }
        return try longestWayOn(link, length: length, known: known, in: network) <= deadEndReach
    }

    /// The longest ways on that ``longestWayOn(_:length:known:in:)`` worked out, by directed link
    /// (a negative length: the search is still in it), and the entry bearings of the links the
    /// model scored as a continuation (each is one at every junction it leaves, from every road
    /// coming in: its bearing is worked out from its shape once). Map facts only. A horizon engine
    /// keeps one for as long as it keeps the links it placed; a single call of
    /// ``branches(after:in:)`` starts an empty one.
    final class WaysOn {
        var lengths: [DirectedLink: Double] = [:]
        var entryBearings: [DirectedLink: Double] = [:]
    }

    /// The legal continuations after driving `incoming` to its end, most probable first.
    ///
    /// Empty when the vehicle cannot legally go on (not even by a U-turn).
    public func branches(after incoming: DirectedLink, in network: any RoadNetwork) throws -> [JunctionBranch] {
        try branches(after: incoming, road: network.link(incoming.link), in: network)
    }

    /// ``branches(after:in:)`` for a caller that has read the incoming link already: `incomingLink`
    /// is the map's link `incoming.link` (its geometry and attributes; its features may differ).
    func branches(
        after incoming: DirectedLink, road incomingLink: RoadLink, in network: any RoadNetwork,
        waysOn: WaysOn = WaysOn()
    ) throws -> [JunctionBranch] {
        let heading = incomingLink.exitBearing(incoming.direction)
        let legal = try network.successors(of: incoming)
        let uTurn = incoming.reversed
        let forward = legal.filter { $0 != uTurn }
        if forward.isEmpty {
            guard legal.contains(uTurn) else { return [] }
            return [
                JunctionBranch(
                    link: uTurn, probability: 1, turnAngle: 180, isUTurn: true,
                    road: BranchRoad(incomingLink, uTurn.direction))
            ]
        }
        var weighted: [(link: DirectedLink, angle: Double, weight: Double, road: BranchRoad)] = []
        weighted.reserveCapacity(forward.count)
        let weighsDeadEnds = forward.count >= 2 && deadEndFactor != 1
        for candidate in forward {
            let road = try network.link(candidate.link)
            let entry: Double
            if let known = waysOn.entryBearings[candidate] {
                entry = known
            } else {
                entry = road.entryBearing(candidate.direction)
                waysOn.entryBearings[candidate] = entry
            }
            let angle = signedTurnAngle(from: heading, to: entry)
            var weight = weight(from: incomingLink, to: road, direction: candidate.direction, turnAngle: angle)
            if weighsDeadEnds, try endsWithinReach(candidate, length: road.length, known: waysOn, in: network) {
                weight *= deadEndFactor
            }
            weighted.append((candidate, angle, weight, BranchRoad(road, candidate.direction)))
        }
        if let through = throughRoad(weighted.map(\.angle)) { weighted[through].weight *= throughRoadFactor }
        let total = weighted.reduce(0) { $0 + $1.weight }
        var sorted = weighted.map {
            JunctionBranch(
                link: $0.link, probability: total > 0 ? $0.weight / total : 1 / Double(weighted.count),
                turnAngle: $0.angle, isUTurn: false, road: $0.road)
        }
        sorted.sort { a, b in
            if a.probability != b.probability { return a.probability > b.probability }
            if abs(a.turnAngle) != abs(b.turnAngle) { return abs(a.turnAngle) < abs(b.turnAngle) }
            return a.link < b.link
        }
        // Offered at junctions (two or more ways on), and where a two-way road goes on only as a
        // one-way road: the last place to turn back before it. Not where a road merely continues.
        guard offersUTurns, legal.contains(uTurn) else { return sorted }
        if forward.count < 2 {
            guard incomingLink.oneway == .no, try network.link(forward[0].link).oneway != .no else { return sorted }
        }
        return sorted + [
            JunctionBranch(
                link: uTurn, probability: 0, turnAngle: 180, isUTurn: true,
                road: BranchRoad(incomingLink, uTurn.direction))
        ]
    }
}
