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
/// in it) and ends when the vehicle is past it. A point passed stays passed, even if noise puts
/// the vehicle back before it, until it leaves the main path (behind the trailing length, or on a
/// path no longer followed); only then can a later pass raise its events again. A stretch the
/// vehicle is in is exited when the vehicle passes its end or when it is no longer on the main
/// path. Objects are told apart by identifier, so a new main path (a promotion, a reset) with the
/// same objects at other offsets raises nothing.
///
/// Deterministic: the events depend only on the objects and offsets given.
public struct RoadObjectTracker: Sendable {
    /// Stretches the vehicle is in.
    private var inside: [RoadObjectID: RoadObject] = [:]
    /// Objects seen ahead of the vehicle, not yet reached.
    private var ahead: Set<RoadObjectID> = []
    /// Objects passed in this pass (points, and stretches whose end the vehicle passed).
    private var passed: Set<RoadObjectID> = []

    /// Creates a tracker that has seen nothing.
    public init() {}

    /// The stretches the vehicle is in, by identifier.
    public var current: [RoadObject] { inside.values.sorted { $0.id < $1.id } }

    /// Takes the objects of the main path (``HorizonEngine/roadObjects(on:)``) and the vehicle's
    /// offset on it, and returns what happened since the last call: exits, entries, then the
    /// distances to the objects ahead, each group in offset order. An empty horizon (`nil`
    /// offset) exits every stretch the vehicle was in.
    public mutating func update(mainPathObjects objects: [PathRoadObject], vehicleOffset: Double?) -> [RoadObjectEvent]
    {
        guard let vehicle = vehicleOffset else {
            let exits = current.map { RoadObjectEvent.exited($0, offset: 0) }
            inside = [:]
            ahead = []
            passed = []
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
        ahead.formIntersection(located.keys)
        passed.formIntersection(located.keys)
        var distances: [RoadObjectEvent] = []
        for place in objects {
            let id = place.object.id
            guard !passed.contains(id), inside[id] == nil else { continue }
            if place.start > vehicle {
                ahead.insert(id)
                distances.append(.distanceUpdated(place.object, distance: place.start - vehicle))
            } else if place.isPoint {
                guard ahead.remove(id) != nil else { continue }  // first seen behind: not watched passing
                passed.insert(id)
                changes.append((place.start, 1, .entered(place.object, offset: place.start)))
                changes.append((place.start, 2, .exited(place.object, offset: place.start)))
            } else if vehicle <= place.end || place.isClippedAtEnd {
                ahead.remove(id)
                inside[id] = place.object
                changes.append((place.start, 1, .entered(place.object, offset: place.start)))
            } else if ahead.remove(id) != nil {
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
