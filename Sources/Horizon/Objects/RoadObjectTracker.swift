/// Something that happened between the vehicle and a road object on the main path.
public enum RoadObjectEvent: Hashable, Sendable {
    /// The vehicle entered the object: reached a stretch's start (or was inside it when it first
    /// saw it), or reached a point object. `offset` is where, on the current main path.
    case entered(RoadObject, offset: Double)
    /// The vehicle left the object: passed a stretch's end or a point object, or the stretch left
    /// the main path while the vehicle was in it. `offset` is where, on the current main path
    /// (the vehicle's offset when the stretch left the path).
    case exited(RoadObject, offset: Double)
    /// An object ahead of the vehicle on the main path, `distance` metres away (to its start).
    case distanceUpdated(RoadObject, distance: Double)

    /// The object the event is about.
    public var object: RoadObject {
        switch self {
        case .entered(let object, _), .exited(let object, _), .distanceUpdated(let object, _): object
        }
    }
}

/// Raises ``RoadObjectEvent``s as the vehicle moves along the main path: `entered` and `exited`
/// exactly once per pass of each object, and a distance for every object ahead at each update.
///
/// A pass begins when the object is seen ahead of the vehicle (or, for a stretch, with the vehicle
/// in it) and ends when the vehicle is past it (a point watched approaching: ``passMargin`` past
/// it). A point passed stays passed, even if noise puts
/// the vehicle back before it, until it leaves the main path (behind the trailing length, or on a
/// path no longer followed); only then can a later pass raise its events again. A stretch the
/// vehicle is in is exited when the vehicle passes its end or when it is no longer on the main
/// path. Objects are told apart by identifier, so a new main path (a promotion, a reset) with the
/// same objects at other offsets raises nothing.
///
/// A new main path can begin just past a point the vehicle drove over between two updates (the
/// tree was rebuilt at the junction the point is at). Given the metres `travelled` since the last
/// update, a point that was ahead within that distance (less ``passMargin``) and is no longer on
/// the main path, or one first seen behind the vehicle within it, was passed in between. After a
/// U-turn, pass ``HorizonEngine/forwardTravel(_:)``: how far the vehicle got before turning round.
///
/// Deterministic: the events depend only on the objects and offsets given.
public struct RoadObjectTracker: Sendable {
    /// Stretches the vehicle is in.
    private var inside: [RoadObjectID: RoadObject] = [:]
    /// Objects seen ahead of the vehicle, not yet reached, with their distance at the last update.
    private var ahead: [RoadObjectID: (object: RoadObject, distance: Double, isPoint: Bool)] = [:]
    /// Objects passed in this pass (points, and stretches whose end the vehicle passed).
    private var passed: Set<RoadObjectID> = []
    /// Points passed off the main path at the last update (see ``update(mainPathObjects:vehicleOffset:travelled:travelledAlongPreviousPath:)``),
    /// which a path built next may hold behind the vehicle: not passed again.
    private var passedOffPath: Set<RoadObjectID> = []

    /// How far beyond a point object, metres, the vehicle must be placed before the point counts
    /// as passed (when it was watched approaching).
    public let passMargin: Double

    /// Creates a tracker that has seen nothing. `passMargin`: how far past a point the vehicle
    /// must be placed before it is passed (default 1 m). A matched position is seldom better than
    /// a metre along the road, and a vehicle that stops at a signal's stop line and turns round
    /// there has not passed the signal; the events come that much later (0.1 s at 36 km/h).
    public init(passMargin: Double = 1) {
        self.passMargin = max(0, passMargin)
    }

    /// The stretches the vehicle is in, by identifier.
    public var current: [RoadObject] { inside.values.sorted { $0.id < $1.id } }

    /// Takes the objects of the main path (``HorizonEngine/roadObjects(on:)``) and the vehicle's
    /// offset on it, and returns what happened since the last call: exits, entries, then the
    /// distances to the objects ahead, each group in offset order. An empty horizon (`nil`
    /// offset) exits every stretch the vehicle was in. `travelled`: metres the vehicle drove since
    /// the last update (its speed times the time between the fixes; 0 when not known).
    ///
    /// `travelledAlongPreviousPath`: how far the vehicle drove along the main path of the last call
    /// before it left it (``HorizonEngine/travelAlongPreviousMainPath(_:)``: through the branch point
    /// of a side path it turned onto, however far the speeds say it drove); a point ahead on that
    /// path beyond it was not passed, one before it was. Default: `travelled`.
    public mutating func update(
        mainPathObjects objects: [PathRoadObject], vehicleOffset: Double?, travelled: Double = 0,
        travelledAlongPreviousPath: Double? = nil
    ) -> [RoadObjectEvent] {
        let previousPathTravel = travelledAlongPreviousPath ?? travelled
        guard let vehicle = vehicleOffset else {
            let exits = current.map { RoadObjectEvent.exited($0, offset: 0) }
            inside = [:]
            ahead = [:]
            passed = []
            passedOffPath = []
            return exits
        }
        var located: [RoadObjectID: PathRoadObject] = [:]
        for object in objects where located[object.object.id] == nil { located[object.object.id] = object }
        var changes: [(offset: Double, order: Int, event: RoadObjectEvent)] = []
        // Stretches left: passed their end, or no longer on the main path.
        for (id, object) in inside.sorted(by: { $0.key < $1.key }) {
            guard let place = located[id] else {
                changes.append((vehicle, 0, .exited(object, offset: vehicle)))
                inside[id] = nil
                continue
            }
            if vehicle > place.end, !place.isClippedAtEnd {
                changes.append((place.end, 0, .exited(place.object, offset: place.end)))
                inside[id] = nil
                passed.insert(id)
            }
        }
        // Points ahead within what the vehicle drove since, now gone from the main path or only
        // farther ahead than they were (a new main path that comes round to them again): passed.
        let recentlyPassed = passedOffPath
        passedOffPath = []
        for (id, seen) in ahead.sorted(by: { $0.key < $1.key }) {
            let now = located[id].map { $0.start - vehicle }
            if now == nil { ahead[id] = nil }
            guard seen.isPoint, seen.distance + passMargin <= previousPathTravel,
                now.map({ $0 > seen.distance + 20 }) ?? true
            else {
                continue
            }
            passedOffPath.insert(id)
            let offset = vehicle - travelled + seen.distance
            changes.append((offset, 1, .entered(seen.object, offset: offset)))
            changes.append((offset, 2, .exited(seen.object, offset: offset)))
        }
        passed.formIntersection(located.keys)
        var distances: [RoadObjectEvent] = []
        for place in objects {
            let id = place.object.id
            guard !passed.contains(id), inside[id] == nil else { continue }
            let approaching = place.isPoint && ahead[id] != nil && place.start > vehicle - passMargin
            if place.start > vehicle || approaching {
                // A main path that comes round to the object again holds it twice: the nearer counts.
                if located[id]?.start == place.start {
                    ahead[id] = (place.object, place.start - vehicle, place.isPoint)
                }
                if place.start > vehicle {
                    distances.append(.distanceUpdated(place.object, distance: place.start - vehicle))
                }
            } else if place.isPoint {
                // First seen behind: not watched passing, unless it lies within what was driven.
                let driven = vehicle - place.start <= travelled && !recentlyPassed.contains(id)
                guard ahead.removeValue(forKey: id) != nil || driven else { continue }
                passed.insert(id)
                changes.append((place.start, 1, .entered(place.object, offset: place.start)))
                changes.append((place.start, 2, .exited(place.object, offset: place.start)))
            } else if vehicle <= place.end || place.isClippedAtEnd {
                ahead[id] = nil
                inside[id] = place.object
                changes.append((place.start, 1, .entered(place.object, offset: place.start)))
            } else if ahead.removeValue(forKey: id) != nil {
                // Skipped over entirely between two updates: entered and left.
                passed.insert(id)
                changes.append((place.start, 1, .entered(place.object, offset: place.start)))
                changes.append((place.end, 0, .exited(place.object, offset: place.end)))
            }
        }
        let ordered = changes.enumerated().sorted {
            ($0.element.offset, $0.element.order, $0.offset) < ($1.element.offset, $1.element.order, $1.offset)
        }
        return ordered.map(\.element.event) + distances
    }
}
