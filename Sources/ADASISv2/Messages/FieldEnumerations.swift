// Enumerated field values (the value tables of `Tools/adasis-v2.dbc`). Every enum covers every
// code its field can carry (reserved codes included), so any received frame maps onto a case.

/// A two-bit yes/no attribute (Tunnel, Bridge, BuiltUpArea, DividedRoad, ComplexIntersection,
/// PartOfCalculatedRoute).
public enum YesNo: UInt8, Hashable, Sendable, CaseIterable {
    /// The attribute does not apply.
    case no = 0
    /// The attribute applies.
    case yes = 1
    /// The provider does not know.
    case unknown = 2
    /// Not available in this system.
    case notAvailable = 3
}

/// FunctionalRoadClass: 1 is the most important road class, 6 the least.
public enum FunctionalRoadClass: UInt8, Hashable, Sendable, CaseIterable {
    /// Class not known.
    case unknown = 0
    /// Most important roads (motorways).
    case class1 = 1
    /// Second class.
    case class2 = 2
    /// Third class.
    case class3 = 3
    /// Fourth class.
    case class4 = 4
    /// Fifth class.
    case class5 = 5
    /// Least important roads.
    case class6 = 6
    /// Not available.
    case notAvailable = 7
}

/// FormOfWay: the physical kind of road.
public enum FormOfWay: UInt8, Hashable, Sendable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// Freeway or controlled-access road that is not a ramp.
    case freeway = 1
    /// Multiple-carriageway road.
    case multipleCarriageway = 2
    /// Single-carriageway road.
    case singleCarriageway = 3
    /// Part of a roundabout circle.
    case roundaboutCircle = 4
    /// Traffic square.
    case trafficSquare = 5
    /// Reserved code 6.
    case reserved6 = 6
    /// Reserved code 7.
    case reserved7 = 7
    /// Parallel road.
    case parallelRoad = 8
    /// Ramp on a freeway.
    case freewayRamp = 9
    /// Ramp that is not on a freeway.
    case ramp = 10
    /// Service or frontage road.
    case serviceRoad = 11
    /// Car park entrance or exit.
    case carParkAccess = 12
    /// Service-area entrance or exit.
    case serviceAreaAccess = 13
    /// Pedestrian zone.
    case pedestrianZone = 14
    /// Not available.
    case notAvailable = 15
}

/// EffectiveSpeedLimitType: where the effective speed limit comes from.
public enum SpeedLimitType: UInt8, Hashable, Sendable, CaseIterable {
    /// Implicit: the legal default for the road type.
    case implicit = 0
    /// Explicit on a sign.
    case explicit = 1
    /// Valid by night.
    case byNight = 2
    /// Valid by day.
    case byDay = 3
    /// Valid at a time of day.
    case timeOfDay = 4
    /// Valid in rain.
    case rain = 5
    /// Valid in snow.
    case snow = 6
    /// Not known.
    case unknown = 7
}

/// CurrentLane of a POSITION.
public enum CurrentLane: UInt8, Hashable, Sendable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// Emergency lane.
    case emergencyLane = 1
    /// The road has a single lane.
    case singleLaneRoad = 2
    /// Left-most lane.
    case leftMost = 3
    /// Right-most lane.
    case rightMost = 4
    /// A middle lane of a road with three or more lanes.
    case middle = 5
    /// Reserved code 6.
    case reserved = 6
    /// Not available.
    case notAvailable = 7
}

/// RightOfWay of a STUB **(convention of this project: sources word 0/1 differently)**.
public enum RightOfWay: UInt8, Hashable, Sendable, CaseIterable {
    /// The path entered through this stub has priority.
    case hasPriority = 0
    /// The path entered through this stub must yield.
    case mustYield = 1
    /// Not known.
    case unknown = 2
    /// Not available.
    case notAvailable = 3
}

/// Accuracy of a PROFILE SHORT.
public enum ProfileAccuracy: UInt8, Hashable, Sendable, CaseIterable {
    /// Highest accuracy.
    case highest = 0
    /// Medium accuracy.
    case medium = 1
    /// Lowest accuracy.
    case lowest = 2
    /// Accuracy not known.
    case unknown = 3
}

/// MapProvider of META-DATA.
public enum MapProvider: UInt8, Hashable, Sendable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// HERE.
    case here = 1
    /// TomTom.
    case tomTom = 2
    /// Zenrin.
    case zenrin = 3
    /// IPC.
    case ipc = 4
    /// NavInfo.
    case navInfo = 5
    /// Any other provider; this project sends it for OpenStreetMap.
    case other = 6
    /// Not available.
    case notAvailable = 7
}

/// DrivingSide of META-DATA.
public enum DrivingSide: UInt8, Hashable, Sendable, CaseIterable {
    /// Left-hand traffic.
    case left = 0
    /// Right-hand traffic.
    case right = 1
}

/// SpeedUnits of META-DATA: the unit of every EffectiveSpeedLimit.
public enum SpeedUnits: UInt8, Hashable, Sendable, CaseIterable {
    /// Kilometres per hour.
    case kilometresPerHour = 0
    /// Miles per hour.
    case milesPerHour = 1
}
