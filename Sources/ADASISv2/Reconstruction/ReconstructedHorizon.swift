/// The horizon a receiver has rebuilt from ADASIS v2 messages: what `HorizonReconstructor` holds.
/// Offsets in it are **absolute** metres from the start of each path (unwrapped, may exceed 8190).
public struct ReconstructedHorizon: Hashable, Sendable {
    /// The latest META-DATA (country, driving side, speed units, map version, protocol version).
    public internal(set) var metaData: MetaDataMessage?
    /// Where the sender said the vehicle was, each time META-DATA's country, region or driving side
    /// changed (the first META-DATA included), in reception order.
    public internal(set) var placeChanges: [MetaDataPlaceChange] = []
    /// The path the vehicle is on (the root of the path tree); `nil` before the first POSITION on a
    /// regular path.
    public internal(set) var mainPathIndex: UInt8?
    /// Every path held, by path index (8…63): the main path, its sub-paths, and paths whose content
    /// arrived before the STUB or POSITION that places them.
    public internal(set) var paths: [UInt8: ReconstructedPath] = [:]
    /// The primary vehicle position (PositionIndex 0).
    public internal(set) var position: ReconstructedPosition?
    /// The vehicle's last known absolute offset on the main path (kept while POSITION reports no
    /// regular path, e.g. off road); `nil` until a valid POSITION on the main path.
    public internal(set) var vehicleOffset: Int?
    /// Every position candidate of the current POSITION cycle by PositionIndex (0…3), the primary
    /// one included: 1…3 are where the vehicle may be instead (parallel roads), each with its
    /// PositionProbability, received after the last PositionIndex 0.
    public internal(set) var positionCandidates: [UInt8: ReconstructedPosition] = [:]
    /// The latest SEGMENT on path index 4 ("current link" of ADASIS v2 mini).
    public internal(set) var currentLinkSegment: SegmentMessage?
    /// Reception statistics per message type (cyclic-counter gaps, repetitions, discarded messages).
    public internal(set) var counters: [MessageType: MessageTypeCounters] = [:]
    /// How many times the tree was re-rooted because the vehicle moved to another path.
    public internal(set) var reRootCount = 0

    /// The main path, if any.
    public var mainPath: ReconstructedPath? { mainPathIndex.flatMap { paths[$0] } }

    /// The indices of `index`'s sub-paths (direct children), sorted.
    public func subPaths(of index: UInt8) -> [UInt8] {
        paths.values.filter { $0.parent == index }.map(\.index).sorted()
    }
}

/// One path of the reconstructed tree and everything sent on it, at absolute offsets.
public struct ReconstructedPath: Hashable, Sendable {
    /// The path index, 8…63.
    public let index: UInt8
    /// The parent path; `nil` for the main path and for paths no STUB has placed yet.
    public internal(set) var parent: UInt8?
    /// Absolute offset on the parent where this path branches off; `nil` without a parent.
    public internal(set) var branchOffset: Int?
    /// The STUB that announced this path (flags and counter cleared); `nil` without a parent.
    public internal(set) var announcingStub: StubMessage?
    /// SEGMENTs by absolute offset (flags and counter cleared); each is in force until the next one.
    public internal(set) var segments: [Int: SegmentMessage] = [:]
    /// STUBs by absolute offset; one junction may have several (flags and counter cleared).
    public internal(set) var stubs: [Int: [StubMessage]] = [:]
    /// Profile spots by profile type and absolute offset.
    public internal(set) var profiles: [ProfileType: [Int: ProfileSpot]] = [:]
    /// Road-object spots (PROFILE SHORT 18, 19, 20) with their Value1; several may share an
    /// offset (told apart by type code). ``objects`` pairs them into objects.
    public internal(set) var objectMarks: [ObjectMark: UInt16] = [:]

    /// Creates an empty path.
    public init(index: UInt8) {
        self.index = index
    }

    /// The SEGMENT in force at absolute `offset`: the last one at or before it.
    public func segment(at offset: Int) -> SegmentMessage? {
        segments.filter { $0.key <= offset }.max { $0.key < $1.key }?.value
    }

    /// The last spot of `type` at or before absolute `offset`.
    public func spot(_ type: ProfileType, at offset: Int) -> ProfileSpot? {
        profiles[type]?.filter { $0.key <= offset }.max { $0.key < $1.key }?.value
    }

    /// Whether the path holds no content.
    public var isEmpty: Bool { segments.isEmpty && stubs.isEmpty && profiles.isEmpty && objectMarks.isEmpty }
}

/// A profile type of either message: PROFILE SHORT (10-bit spots) or PROFILE LONG (32-bit values).
public enum ProfileType: Hashable, Sendable {
    /// A PROFILE SHORT type.
    case short(ProfileShortType)
    /// A PROFILE LONG type.
    case long(ProfileLongType)
}

/// One profile spot: its raw value at an offset.
public struct ProfileSpot: Hashable, Sendable {
    /// The raw value: 10-bit for PROFILE SHORT (1023 unknown), 32-bit for PROFILE LONG.
    public let value: UInt32
    /// The accuracy of a PROFILE SHORT spot; `nil` for PROFILE LONG.
    public let accuracy: ProfileAccuracy?
    /// Whether the spot is a control point.
    public let isControlPoint: Bool

    /// Creates a spot.
    public init(value: UInt32, accuracy: ProfileAccuracy? = nil, isControlPoint: Bool = false) {
        self.value = value
        self.accuracy = accuracy
        self.isControlPoint = isControlPoint
    }
}

/// A vehicle position as received, with its offset unwrapped.
public struct ReconstructedPosition: Hashable, Sendable {
    /// The POSITION as received.
    public let message: PositionMessage
    /// Absolute offset on `message.pathIndex`; `nil` when the offset is invalid (8191) or the path
    /// index is not a regular path (0 unknown, 1 not digitised, 2 off road, 3 not calibrated).
    public let absoluteOffset: Int?
    /// The time given with the message (seconds, the caller's clock).
    public let time: Double
}

/// The country, region and driving side of a META-DATA that changed them, with its reception time.
public struct MetaDataPlaceChange: Hashable, Sendable {
    /// Reception time (the caller's clock), seconds.
    public var time: Double
    /// ISO 3166-1 numeric country code, 0 unknown.
    public var countryCode: UInt16
    /// META-DATA RegionCode (see `Docs/adasis-conventions.md`), 0 unknown.
    public var regionCode: UInt16
    /// Driving side from then on.
    public var drivingSide: DrivingSide

    /// The place `metaData` names, received at `time`.
    public init(_ metaData: MetaDataMessage, time: Double) {
        self.time = time
        countryCode = metaData.countryCode
        regionCode = metaData.regionCode
        drivingSide = metaData.drivingSide
    }

    /// Whether `other` names the same country, region and driving side.
    public func samePlace(as other: MetaDataPlaceChange) -> Bool {
        (countryCode, regionCode, drivingSide) == (other.countryCode, other.regionCode, other.drivingSide)
    }
}
