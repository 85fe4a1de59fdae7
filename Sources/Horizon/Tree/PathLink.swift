import RoadMap

/// The attributes of a stretch of road in the driving direction: what an ADASIS SEGMENT carries.
public struct SegmentAttributes: Hashable, Sendable {
    /// Speed limit for the driving direction (value and kind).
    public var speedLimit: SpeedLimit
    /// OSM highway class.
    public var highway: HighwayClass
    /// Form of way.
    public var formOfWay: FormOfWay
    /// Lanes in the driving direction, `nil` when unknown.
    public var lanes: UInt8?
    /// Lanes in the opposite direction: 0 on a oneway road, `nil` when unknown.
    public var oppositeLanes: UInt8?
    /// In a tunnel (`nil` unknown).
    public var tunnel: Bool?
    /// On a bridge (`nil` unknown).
    public var bridge: Bool?
    /// In a built-up area (`nil` unknown).
    public var builtUpArea: Bool?
    /// Physically divided from the opposite direction (`nil` unknown).
    public var dividedRoad: Bool?
    /// ISO 3166-1 numeric country code, 0 unknown.
    public var countryCode: UInt16
    /// Project-defined region code, 0 unknown.
    public var regionCode: UInt16

    /// Functional road class, 1 (motorway) … 6.
    public var functionalClass: UInt8 { highway.functionalClass }

    /// The attributes of `link` driven in `direction`.
    public init(_ link: RoadLink, _ direction: LinkDirection) {
        let driving = link.attributes(direction)
        speedLimit = driving.speedLimit
        highway = link.highway
        formOfWay = link.formOfWay
        lanes = driving.lanes
        oppositeLanes = link.oppositeLanes(direction)
        tunnel = link.tunnel
        bridge = link.bridge
        builtUpArea = link.builtUpArea
        dividedRoad = link.dividedRoad
        countryCode = link.countryCode
        regionCode = link.regionCode
    }
}

/// A profile value from an offset along a path until the next point of the same profile.
public struct PathProfilePoint: Hashable, Sendable {
    /// Metres from the path start.
    public var offset: Double
    /// Curvature in 1/m (positive = right-hand curve in the driving direction) or slope in percent
    /// (positive = uphill in the driving direction).
    public var value: Double

    /// Creates a profile point.
    public init(offset: Double, value: Double) {
        self.offset = offset
        self.value = value
    }
}

/// A point feature (safety camera, traffic signals, …) or the piece of a zone on a link, that
/// applies to the driving direction. A zone piece's offset is where it starts in the driving
/// direction.
public struct PathFeature: Hashable, Sendable {
    /// Metres from the path start.
    public var offset: Double
    /// What it is.
    public var kind: PointFeatureKind

    /// Creates a path feature.
    public init(offset: Double, kind: PointFeatureKind) {
        self.offset = offset
        self.kind = kind
    }
}

/// One directed link on a path, with everything the horizon knows about it in path coordinates.
///
/// Immutable once on a path: its offsets never change, even when links before it are dropped.
/// A value type; its four lists are kept together in one shared, immutable box, so that copying a
/// link (content is built from links read by value, and a path is copied whole when it grows while
/// another copy of the tree is held) retains one object instead of four arrays. The box holds the
/// offsets of a link placed at one start offset; placed elsewhere (the engine places each link it
/// has scored wherever a path reaches it), the link keeps the box and its lists move with
/// ``startOffset`` as they are read.
public struct PathLink: Hashable, Sendable {
    /// The link and its driving direction.
    public var link: DirectedLink
    /// Metres from the path start to the entry of this link. Setting it moves the link's profiles
    /// and features along with it.
    public var startOffset: Double
    /// Length of the link, metres.
    public var length: Double
    /// The OSM way the link was cut from.
    public var wayID: Int64
    /// The road's attributes in the driving direction.
    public var attributes: SegmentAttributes
    /// Index of this link in the active route, `nil` when the link is not driven as part of it.
    public var routeIndex: Int?
    /// The lists below, shared between copies and replaced whole when one of them is set.
    private var lists: Lists

    /// Curvature profile in path offsets (signs for the driving direction).
    public var curvature: [PathProfilePoint] {
        get { shift == 0 || lists.curvature.isEmpty ? lists.curvature : Array(lazyCurvature) }
        set { lists = Lists(newValue, slope, features, exitBranches, start: startOffset) }
    }
    /// Slope profile in path offsets (signs for the driving direction).
    public var slope: [PathProfilePoint] {
        get { shift == 0 || lists.slope.isEmpty ? lists.slope : Array(lazySlope) }
        set { lists = Lists(curvature, newValue, features, exitBranches, start: startOffset) }
    }
    /// Features on this link that apply to the driving direction, in path offsets.
    public var features: [PathFeature] {
        get { shift == 0 || lists.features.isEmpty ? lists.features : Array(lazyFeatures) }
        set { lists = Lists(curvature, slope, newValue, exitBranches, start: startOffset) }
    }
    /// Legal continuations at the end of this link, most probable first (empty at a dead end that
    /// allows no U-turn). More than one makes the end of the link an intersection.
    public var exitBranches: [JunctionBranch] {
        get { lists.exitBranches }
        set { lists = Lists(curvature, slope, features, newValue, start: startOffset) }
    }

    /// ``curvature`` as it is read, without building an array (the provider reads every link's
    /// lists whenever it builds content).
    public var lazyCurvature: MovedList<PathProfilePoint> { MovedList(stored: lists.curvature, distance: shift) }
    /// ``slope`` as it is read, without building an array.
    public var lazySlope: MovedList<PathProfilePoint> { MovedList(stored: lists.slope, distance: shift) }
    /// ``features`` as they are read, without building an array.
    public var lazyFeatures: MovedList<PathFeature> { MovedList(stored: lists.features, distance: shift) }

    /// How far this link lies from where its box's offsets were computed, metres.
    private var shift: Double { startOffset - lists.start }

    /// The profiles, features and branches of a link, in the path offsets of a link that starts
    /// at `start`.
    private final class Lists: Sendable {
        let curvature: [PathProfilePoint]
        let slope: [PathProfilePoint]
        let features: [PathFeature]
        let exitBranches: [JunctionBranch]
        let start: Double

        init(
            _ curvature: [PathProfilePoint], _ slope: [PathProfilePoint], _ features: [PathFeature],
            _ exitBranches: [JunctionBranch], start: Double
        ) {
            self.curvature = curvature
            self.slope = slope
            self.features = features
            self.exitBranches = exitBranches
            self.start = start
        }
    }

    /// Links are equal when every field and list is.
    public static func == (lhs: PathLink, rhs: PathLink) -> Bool {
        lhs.link == rhs.link && lhs.startOffset == rhs.startOffset && lhs.length == rhs.length
            && lhs.wayID == rhs.wayID && lhs.attributes == rhs.attributes && lhs.routeIndex == rhs.routeIndex
            && (lhs.lists === rhs.lists
                || (lhs.lazyCurvature.elementsEqual(rhs.lazyCurvature) && lhs.lazySlope.elementsEqual(rhs.lazySlope)
                    && lhs.lazyFeatures.elementsEqual(rhs.lazyFeatures) && lhs.exitBranches == rhs.exitBranches))
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(link)
        hasher.combine(startOffset)
        hasher.combine(length)
        hasher.combine(wayID)
        hasher.combine(attributes)
        hasher.combine(routeIndex)
        hasher.combine(lists.curvature.count)
        for point in lazyCurvature { hasher.combine(point) }
        hasher.combine(lists.slope.count)
        for point in lazySlope { hasher.combine(point) }
        hasher.combine(lists.features.count)
        for feature in lazyFeatures { hasher.combine(feature) }
        hasher.combine(exitBranches)
    }

    /// Metres from the path start to the exit of this link.
    public var endOffset: Double { startOffset + length }
    /// Whether the link is part of the active route.
    public var isOnRoute: Bool { routeIndex != nil }

    /// Places `road` driven in `direction` on a path at `startOffset`.
    ///
    /// Profiles are given forward on the link, each value holding from its offset to the next
    /// point (the last one to the link's end). Driven backward, the stretch `[o(i), o(i+1))` becomes
    /// `[L − o(i+1), L − o(i))` with the opposite sign: a right curve forward is a left curve
    /// backward, uphill forward is downhill backward.
    public init(
        road: RoadLink, direction: LinkDirection, startOffset: Double, exitBranches: [JunctionBranch],
        routeIndex: Int?
    ) {
        link = DirectedLink(road.id, direction)
        self.startOffset = startOffset
        length = road.length
        wayID = road.wayID
        attributes = SegmentAttributes(road, direction)
        let features = road.features
            .filter { $0.direction == nil || $0.direction == direction }
            .map {
                // A zone piece starts, in the driving direction, at its far end when driven backward.
                let extent = if case .zone(let piece) = $0.kind { piece.length } else { 0.0 }
                return PathFeature(
                    offset: startOffset + (direction == .forward ? $0.offset : road.length - $0.offset - extent),
                    kind: $0.kind)
            }
            .sorted { $0.offset < $1.offset }
        lists = Lists(
            PathLink.map(road.curvature, length: road.length, direction: direction, start: startOffset),
            PathLink.map(road.slope, length: road.length, direction: direction, start: startOffset), features,
            exitBranches, start: startOffset)
        self.routeIndex = routeIndex
    }

    /// This link placed `distance` metres further along a path (every offset moved by it), with
    /// route index `routeIndex`: the same values as placing the road there in the first place. The
    /// copy shares the box of lists (nothing is allocated).
    func shifted(by distance: Double, routeIndex: Int?) -> PathLink {
        var moved = self
        moved.startOffset += distance
        moved.routeIndex = routeIndex
        return moved
    }

    private static func map(
        _ points: [ProfilePoint], length: Double, direction: LinkDirection,
        start: Double
    ) -> [PathProfilePoint] {
        if direction == .forward {
            return points.map { PathProfilePoint(offset: start + min(max($0.offset, 0), length), value: $0.value) }
        }
        var result: [PathProfilePoint] = []
        result.reserveCapacity(points.count)
        for index in points.indices.reversed() {
            let stretchEnd = index + 1 < points.count ? points[index + 1].offset : length
            result.append(
                PathProfilePoint(
                    offset: start + min(max(length - stretchEnd, 0), length),
                    value: -points[index].value))
        }
        return result
    }
}

/// A value placed at an offset along a path.
public protocol PathOffsetValue {
    /// The same value `distance` metres further along.
    func moved(by distance: Double) -> Self
}

extension PathProfilePoint: PathOffsetValue {
    @inlinable public func moved(by distance: Double) -> PathProfilePoint {
        PathProfilePoint(offset: offset + distance, value: value)
    }
}

extension PathFeature: PathOffsetValue {
    @inlinable public func moved(by distance: Double) -> PathFeature {
        PathFeature(offset: offset + distance, kind: kind)
    }
}

/// A list of a ``PathLink`` in path offsets, read from the list its box holds and moved as each
/// element is read: no array is built, nothing is allocated. Inlinable, so that the modules that
/// read it (the provider) loop over it as over an array.
/// ``PathLink/lazyCurvature``, ``PathLink/lazySlope`` and ``PathLink/lazyFeatures`` give them.
@frozen public struct MovedList<Element: PathOffsetValue>: RandomAccessCollection {
    /// The list as the box holds it.
    @usableFromInline let stored: [Element]
    /// How far every element moves, metres.
    @usableFromInline let distance: Double

    init(stored: [Element], distance: Double) {
        self.stored = stored
        self.distance = distance
    }

    /// The first position, 0.
    @inlinable public var startIndex: Int { stored.startIndex }
    /// One past the last position.
    @inlinable public var endIndex: Int { stored.endIndex }
    /// The element at `position`, in path offsets.
    @inlinable public subscript(position: Int) -> Element { stored[position].moved(by: distance) }
}
