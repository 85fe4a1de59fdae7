import RoadMap

/// Answers to "what is next on the main path?" with distances from the vehicle.
public struct HorizonQueries: Sendable {
    /// The main path the answers are about.
    public var mainPath: HorizonPath
    /// The vehicle's offset on it.
    public var vehicleOffset: Double

    /// Creates queries on `mainPath` with the vehicle at `vehicleOffset`.
    public init(mainPath: HorizonPath, vehicleOffset: Double) {
        self.mainPath = mainPath
        self.vehicleOffset = vehicleOffset
    }

    /// A change of the speed limit ahead.
    public struct SpeedLimitChange: Hashable, Sendable {
        /// Metres from the vehicle along the main path.
        public var distance: Double
        /// Offset on the main path.
        public var offset: Double
        /// The limit before the change (at the vehicle).
        public var previous: SpeedLimit
        /// The limit from the change on.
        public var limit: SpeedLimit
    }

    /// A stretch ahead (or under the vehicle: distance 0) such as a curve or a tunnel.
    public struct Stretch: Hashable, Sendable {
        /// Metres from the vehicle to the start of the stretch, 0 when the vehicle is in it.
        public var distance: Double
        /// Offset of the start on the main path.
        public var startOffset: Double
        /// Offset of the end on the main path (as far as the horizon knows).
        public var endOffset: Double
    }

    /// A curve: a stretch whose curvature is above a threshold.
    public struct Curve: Hashable, Sendable {
        /// Where the curve lies.
        public var stretch: Stretch
        /// Largest absolute curvature in the curve, 1/m.
        public var maximumCurvature: Double
        /// The tightest radius, metres (`1 / maximumCurvature`).
        public var radius: Double { 1 / maximumCurvature }
        /// Whether it bends right (positive curvature) in the driving direction.
        public var isRightHand: Bool
    }

    /// A point feature ahead.
    public struct Feature: Hashable, Sendable {
        /// Metres from the vehicle.
        public var distance: Double
        /// The feature with its main-path offset.
        public var feature: PathFeature
    }

    /// A junction ahead with more than one legal continuation.
    public struct Intersection: Hashable, Sendable {
        /// Metres from the vehicle.
        public var distance: Double
        /// Offset of the junction on the main path.
        public var offset: Double
        /// The legal continuations, most probable first.
        public var branches: [JunctionBranch]
    }

    private var linksFromVehicle: ArraySlice<PathLink> {
        mainPath.links[(mainPath.linkIndex(at: vehicleOffset) ?? mainPath.links.count)...]
    }

    /// The first point ahead where the speed limit for the driving direction differs from the
    /// one at the vehicle.
    public func nextSpeedLimitChange() -> SpeedLimitChange? {
        let links = linksFromVehicle
        guard let current = links.first?.attributes.speedLimit else { return nil }
        guard let change = links.first(where: { $0.attributes.speedLimit != current }) else { return nil }
        return SpeedLimitChange(
            distance: change.startOffset - vehicleOffset, offset: change.startOffset,
            previous: current, limit: change.attributes.speedLimit)
    }

    /// The first curve that is not yet behind the vehicle: consecutive curvature profile stretches
    /// with `|curvature| ≥ minimumCurvature` (1/m) bending the same way; distance 0 inside it.
    public func nextCurve(minimumCurvature: Double) -> Curve? {
        // A curve may start on the link before the vehicle's and reach under it.
        guard let vehicleIndex = mainPath.linkIndex(at: vehicleOffset) else { return nil }
        let points = mainPath.links[max(0, vehicleIndex - 1)...].flatMap(\.lazyCurvature)
        let end = mainPath.endOffset
        var index = 0
        while index < points.count {
            let point = points[index]
            let stretchEnd = index + 1 < points.count ? points[index + 1].offset : end
            guard abs(point.value) >= minimumCurvature, stretchEnd > vehicleOffset else { index += 1; continue }
            var last = index, maximum = abs(point.value)
            while last + 1 < points.count, abs(points[last + 1].value) >= minimumCurvature,
                (points[last + 1].value > 0) == (point.value > 0)
            {
                last += 1
                maximum = max(maximum, abs(points[last].value))
            }
            let curveEnd = last + 1 < points.count ? points[last + 1].offset : end
            return Curve(
                stretch: Stretch(
                    distance: max(0, point.offset - vehicleOffset), startOffset: point.offset,
                    endOffset: curveEnd),
                maximumCurvature: maximum, isRightHand: point.value > 0)
        }
        return nil
    }

    /// The next safety camera at or ahead of the vehicle that applies to the driving direction.
    public func nextCamera() -> Feature? {
        nextFeature { if case .safetyCamera = $0 { return true } else { return false } }
    }

    /// The next traffic signals at or ahead of the vehicle.
    public func nextTrafficSignals() -> Feature? {
        nextFeature { $0 == .trafficSignals }
    }

    private func nextFeature(_ matches: (PointFeatureKind) -> Bool) -> Feature? {
        for link in linksFromVehicle {
            if let feature = link.lazyFeatures.first(where: { $0.offset >= vehicleOffset && matches($0.kind) }) {
                return Feature(distance: feature.offset - vehicleOffset, feature: feature)
            }
        }
        return nil
    }

    /// The next tunnel not yet behind the vehicle (distance 0 inside it).
    public func nextTunnel() -> Stretch? {
        let links = linksFromVehicle
        guard let first = links.firstIndex(where: { $0.attributes.tunnel == true }) else { return nil }
        guard let last = links[first...].prefix(while: { $0.attributes.tunnel == true }).last else { return nil }
        return Stretch(
            distance: max(0, links[first].startOffset - vehicleOffset),
            startOffset: links[first].startOffset, endOffset: last.endOffset)
    }

    /// The next junction ahead of the vehicle with more than one legal continuation (a U-turn
    /// offered on request does not count: where a two-way road goes on only one-way, the node is no
    /// junction).
    public func nextIntersection() -> Intersection? {
        guard
            let link = linksFromVehicle.first(where: { link in
                link.endOffset >= vehicleOffset
                    && link.exitBranches.reduce(0, { $0 + ($1.isOfferedUTurn ? 0 : 1) }) > 1
            })
        else {
            return nil
        }
        return Intersection(
            distance: link.endOffset - vehicleOffset, offset: link.endOffset, branches: link.exitBranches)
    }
}
