import Horizon
import RoadMap

extension HorizonSnapshot {
    /// A road object on the main path, as `adasis horizon` prints it.
    struct ObjectAhead: Encodable, Equatable {
        var id: String
        var type: String
        /// Metres from the vehicle to the object's start (negative: the vehicle is in it).
        var distance_m: Double
        /// Metres from the vehicle to its end (as far as the horizon reaches).
        var end_distance_m: Double
        /// Offsets on the main path.
        var start_offset_m: Double
        var end_offset_m: Double
        /// The object goes on past the horizon's end.
        var clipped_end: Bool
        var enforced_speed_kmh: Double?
        /// What a hazard warns of (`hazard=*` value: children, animal_crossing, curve, …).
        var hazard: String?
    }

    /// Fills ``objects`` with the objects of `objects` not behind `vehicle`, and ``object_events``.
    mutating func describeObjects(_ objects: [PathRoadObject], events: [RoadObjectEvent], vehicle: Double?) {
        func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        if let vehicle {
            self.objects = objects.filter { $0.end >= vehicle }.map { object in
                ObjectAhead(
                    id: object.object.id.rawValue, type: object.object.type.rawValue,
                    distance_m: round(object.start - vehicle), end_distance_m: round(object.end - vehicle),
                    start_offset_m: round(object.start), end_offset_m: round(object.end),
                    clipped_end: object.isClippedAtEnd, enforced_speed_kmh: object.object.attributes.enforcedSpeed,
                    hazard: object.object.attributes.hazard?.osmValue)
            }
        }
        object_events = events.compactMap { event in
            switch event {
            case .entered(let object, _): "entered \(object.id)"
            case .exited(let object, _): "exited \(object.id)"
            case .distanceUpdated: nil
            }
        }
    }
}
