import ADASISv2
import Horizon
import RoadMap

/// What content generation reads beyond its path: roads by identifier (a branch's class, form of
/// way and lanes; a link's shape) and the index of the child path entering a junction. A value
/// type the provider builds per path, so content generation allocates no closures.
protocol LinkLookup {
    /// The road link `id`, `nil` when it cannot be read.
    func road(_ id: LinkID) -> RoadLink?
    /// The ADASIS index of the child path entering at `offset` through `link`, `nil` when none.
    func childIndex(at offset: Double, entering link: DirectedLink) -> UInt8?
}

/// No roads and no child paths: content that names no sub-path (the "mini" horizon's SEGMENT).
struct NoLinkLookup: LinkLookup {
    func road(_ id: LinkID) -> RoadLink? { nil }
    func childIndex(at offset: Double, entering link: DirectedLink) -> UInt8? { nil }
}

/// Generates the atoms of one horizon path within a window of offsets: SEGMENTs where the
/// attributes change, STUBs at junctions, profile spots and PROFILE LONG values, following the
/// message selection.
struct PathContent<Lookup: LinkLookup> {
    let path: HorizonPath
    let pathIndex: UInt8
    /// What the message selection sends, for the road object types subscribed to.
    let sends: ContentSelection
    let units: SpeedUnits
    let routeActive: Bool
    /// The road object types subscribed to.
    let objectTypes: Set<RoadObjectType>
    /// The path's probability when its index was given out (SEGMENT RelativeProbability): fixed for
    /// the path's life, so promoting a side path to main path does not re-send its SEGMENTs.
    let probability: Double
    /// The traffic speeds in force, `nil` while no traffic layer was ever active (then the
    /// traffic-speed profile is not sent).
    var trafficSpeeds: TrafficSpeedTable? = nil
    /// Roads by identifier and the child paths' indices.
    let lookup: Lookup

    /// Atoms with offsets in `(lower, upper]`.
    func atoms(lower: Double, upper: Double) -> [ContentAtom] {
        var result: [ContentAtom] = []
        func inWindow(_ offset: Double) -> Bool { offset > lower && offset <= upper }
        func key(_ offset: Double, _ kind: ContentAtom.Kind) -> ContentAtom.Key {
            ContentAtom.Key(pathIndex: pathIndex, offset: Int(offset.rounded()), kind: kind)
        }
        func wrapped(_ offset: Double) -> UInt16 { PathOffset.wrapped(Int(offset.rounded())) }

        let trafficSpeeds = sends.trafficSpeed ? self.trafficSpeeds : nil
        var previousSegment: SegmentMessage?
        // What the previous SEGMENT was made of: a link with the same attributes and route
        // membership gives the same content, which is then not built again.
        var previousSegmentSource: (attributes: SegmentAttributes, isOnRoute: Bool)?
        // Start one link before the window (its content decides what changes at the window's first
        // link); links entirely before that cannot contribute.
        let first =
            lower.isFinite ? max(0, (path.linkIndex(at: max(lower, path.startOffset)) ?? path.links.count) - 1) : 0
        // A spot goes where the value changes from the path's previous point, however far back
        // that lies: so the spots do not depend on where the window starts (a window starting
        // after a link without points would repeat the value sent before it).
        var previousCurvature =
            sends.curvature ? lastCode(before: first, \.lazyCurvature, ValueCoding.curvatureCode) : nil
        var previousSlope =
            sends.slope ? lastCode(before: first, \.lazySlope, { ValueCoding.slopeCode(percent: $0) }) : nil
        // Each link is read in place (a copy of a `PathLink` retains its lists and costs a
        // call through its value witnesses; this loop runs for every link of every window).
        path.links.withUnsafeBufferPointer { links in
            for position in first..<links.count {
                let link = links.baseAddress! + position
                if link.pointee.startOffset > upper + 0.5 { break }
                // SEGMENT where the attributes (or the route membership) change.
                if sends.segment,
                    previousSegmentSource.map({
                        $0.attributes != link.pointee.attributes || $0.isOnRoute != link.pointee.isOnRoute
                    })
                        ?? true
                {
                    var segment = segmentMessage(link.pointee)
                    let content = segment
                    if content != previousSegment, inWindow(link.pointee.startOffset) {
                        segment.offset = wrapped(link.pointee.startOffset)
                        var sent = segment
                        sent.pathIndex = pathIndex
                        result.append(
                            ContentAtom(
                                key: key(link.pointee.startOffset, .segment), message: .segment(sent)))
                    }
                    previousSegment = content
                    previousSegmentSource = (link.pointee.attributes, link.pointee.isOnRoute)
                }
                // STUBs at the end of the link when the path goes on and other roads leave there.
                if sends.stub, position + 1 < links.count, inWindow(link.pointee.endOffset) {
                    // Straight into the result (no list of branches, no list of STUBs): the last STUB
                    // at the offset is flagged once they are all in.
                    let next = links[position + 1].link
                    let firstStub = result.count
                    func appendStub(_ branch: JunctionBranch, subPathIndex: UInt8) {
                        var stub = stubMessage(branch, offset: link.pointee.endOffset, subPathIndex: subPathIndex)
                        stub.isLastStubAtOffset = false
                        result.append(
                            ContentAtom(
                                key: key(link.pointee.endOffset, .stub(ordinal: result.count - firstStub)),
                                message: .stub(stub)))
                    }
                    for branch in link.pointee.exitBranches where branch.link != next {
                        appendStub(
                            branch,
                            subPathIndex: lookup.childIndex(at: link.pointee.endOffset, entering: branch.link) ?? 5)
                    }
                    if sends.continuationStubs, result.count > firstStub,
                        let continuation = link.pointee.exitBranches.first(where: { $0.link == next })
                    {
                        appendStub(continuation, subPathIndex: 6)
                    }
                    if result.count > firstStub, case .stub(var last) = result[result.count - 1].message {
                        last.isLastStubAtOffset = true
                        result[result.count - 1].message = .stub(last)
                    }
                }
                if sends.curvature {
                    for point in link.pointee.lazyCurvature {
                        let code = ValueCoding.curvatureCode(point.value)
                        defer { previousCurvature = code }
                        guard code != previousCurvature, inWindow(point.offset) else { continue }
                        result.append(spot(.curvature, offset: point.offset, value: code))
                    }
                }
                if sends.slope {
                    for point in link.pointee.lazySlope {
                        let code = ValueCoding.slopeCode(percent: point.value)
                        defer { previousSlope = code }
                        guard code != previousSlope, inWindow(point.offset) else { continue }
                        result.append(spot(.slopeLinear, offset: point.offset, value: code))
                    }
                }
                // Traffic speed: a spot at every link start (not only where it changes), so a new
                // table only ever changes values at offsets the receiver already holds.
                if let trafficSpeeds, inWindow(link.pointee.startOffset) {
                    let code = ValueCoding.trafficSpeedCode(trafficSpeeds.speed(on: link.pointee.link))
                    result.append(spot(.trafficSpeed, offset: link.pointee.startOffset, value: code))
                }
                for feature in link.pointee.lazyFeatures where inWindow(feature.offset) {
                    switch feature.kind {
                    case .safetyCamera(let type, let limit)
                    where sends.camera
                        && RoadObjectType(camera: type).map(objectTypes.contains) == true:
                        var message = ProfileShortMessage(
                            offset: wrapped(feature.offset), pathIndex: pathIndex,
                            profileType: .safetyCamera, value0: UInt16(type.rawValue))
                        message.value1 = limit.map { UInt16(min(1022, max(0, $0.rounded()))) } ?? 1023
                        result.append(
                            ContentAtom(
                                key: key(feature.offset, .spot(profileType: ProfileShortType.safetyCamera.rawValue)),
                                message: .profileShort(message)))
                    case .trafficSignals where sends.signals:
                        result.append(spot(.trafficSignals, offset: feature.offset, value: 1))
                    default:
                        break
                    }
                }
                if sends.linkIdentifier, inWindow(link.pointee.startOffset) {
                    result.append(
                        long(
                            .linkIdentifier, offset: link.pointee.startOffset,
                            value: UInt32(truncatingIfNeeded: link.pointee.wayID)))
                }
                if sends.longitude || sends.latitude,
                    let road = lookup.road(link.pointee.link.link)
                {
                    let geometry = link.pointee.link.direction == .forward ? road.geometry : road.geometry.reversed()
                    let scale = road.length > 0 ? road.length / max(geometry.polylineLength, 1e-9) : 0
                    var along = 0.0
                    let isLast = position == path.links.count - 1
                    for (vertex, point) in geometry.enumerated() {
                        if vertex > 0 { along += geometry[vertex - 1].distance(to: point) * scale }
                        if vertex == geometry.count - 1 && !isLast { break }
                        let offset = link.pointee.startOffset + along
                        guard inWindow(offset) else { continue }
                        if sends.longitude {
                            result.append(
                                long(
                                    .longitude, offset: offset,
                                    value: ValueCoding.longitudeCode(degrees: point.longitude))
                            )
                        }
                        if sends.latitude {
                            result.append(
                                long(
                                    .latitude, offset: offset, value: ValueCoding.latitudeCode(degrees: point.latitude))
                            )
                        }
                    }
                }
            }
        }
        result += objectAtoms(inWindow: inWindow)
        // One atom per key: later content at the same rounded offset replaces earlier (the
        // standard library's sort is stable, so the later one comes last among equal keys).
        result.sort { $0.key < $1.key }
        // In place: the kept atoms move to the front, the rest is cut off.
        var kept = 0
        for index in result.indices {
            if kept > 0, result[kept - 1].key == result[index].key {
                result[kept - 1] = result[index]
            } else {
                if kept != index { result[kept] = result[index] }
                kept += 1
            }
        }
        result.removeLast(result.count - kept)
        return result
    }

    /// The code of the last profile point of `profile` on the links before `position`, `nil` when
    /// they have none.
    private func lastCode(
        before position: Int, _ profile: KeyPath<PathLink, MovedList<PathProfilePoint>>,
        _ code: (Double) -> UInt16
    ) -> UInt16? {
        for link in path.links[..<position].reversed() {
            if let point = link[keyPath: profile].last { return code(point.value) }
        }
        return nil
    }

    /// Road objects other than cameras and signals: points on PROFILE SHORT 18, zones as a start
    /// (19, with the enforced speed) and, once the horizon reaches it, an end (20). A zone that
    /// began before the path's first link is sent with its start there.
    private func objectAtoms(inWindow: (Double) -> Bool) -> [ContentAtom] {
        guard sends.roadObjectPoints || sends.roadObjectZones else { return [] }
        var result: [ContentAtom] = []
        func mark(_ type: ProfileShortType, _ offset: Double, code: UInt16, value: UInt16) {
            guard inWindow(offset) else { return }
            var message = ProfileShortMessage(
                offset: PathOffset.wrapped(Int(offset.rounded())), pathIndex: pathIndex, profileType: type,
                value0: code)
            message.value1 = value
            result.append(
                ContentAtom(
                    key: ContentAtom.Key(
                        pathIndex: pathIndex, offset: Int(offset.rounded()),
                        kind: .objectMark(profileType: type.rawValue, code: code)),
                    message: .profileShort(message)))
        }
        for object in path.roadObjects(types: objectTypes) {
            let type = object.object.type
            let code = RoadObjectWireCode.code(type)
            let speed = RoadObjectWireCode.value1(object.object)
            if object.isPoint {
                guard sends.roadObjectPoints, RoadObjectWireCode.pointProfile(type) == .roadObject else { continue }
                mark(.roadObject, object.start, code: code, value: speed)
            } else if sends.roadObjectZones {
                mark(.roadObjectZoneStart, object.start, code: code, value: speed)
                if !object.isClippedAtEnd { mark(.roadObjectZoneEnd, object.end, code: code, value: 1023) }
            }
        }
        return result
    }

    private func spot(_ type: ProfileShortType, offset: Double, value: UInt16) -> ContentAtom {
        let message = ProfileShortMessage(
            offset: PathOffset.wrapped(Int(offset.rounded())), pathIndex: pathIndex,
            profileType: type, value0: value)
        return ContentAtom(
            key: ContentAtom.Key(
                pathIndex: pathIndex, offset: Int(offset.rounded()), kind: .spot(profileType: type.rawValue)),
            message: .profileShort(message))
    }

    private func long(_ type: ProfileLongType, offset: Double, value: UInt32) -> ContentAtom {
        let message = ProfileLongMessage(
            offset: PathOffset.wrapped(Int(offset.rounded())), pathIndex: pathIndex,
            profileType: type, value: value)
        return ContentAtom(
            key: ContentAtom.Key(
                pathIndex: pathIndex, offset: Int(offset.rounded()), kind: .long(profileType: type.rawValue)),
            message: .profileLong(message))
    }

    /// The SEGMENT content of a link (offset and path index filled in by the caller).
    func segmentMessage(_ link: PathLink) -> SegmentMessage {
        let attributes = link.attributes
        let limit = WireValues.speedLimit(attributes.speedLimit, units: units)
        return SegmentMessage(
            offset: 0, pathIndex: 0, tunnel: WireValues.yesNo(attributes.tunnel),
            bridge: WireValues.yesNo(attributes.bridge),
            builtUpArea: WireValues.yesNo(attributes.builtUpArea),
            relativeProbability: ValueCoding.probabilityCode(percent: probability * 100),
            functionalRoadClass: FunctionalRoadClass(rawValue: attributes.functionalClass) ?? .unknown,
            partOfCalculatedRoute: routeActive ? (link.isOnRoute ? .yes : .no) : .unknown,
            formOfWay: WireValues.formOfWay(attributes.formOfWay),
            effectiveSpeedLimit: limit.code, effectiveSpeedLimitType: limit.type,
            dividedRoad: WireValues.yesNo(attributes.dividedRoad),
            numberOfLanesOppositeDirection: WireValues.oppositeLanes(attributes.oppositeLanes),
            numberOfLanesDrivingDirection: WireValues.drivingLanes(attributes.lanes))
    }

    private func stubMessage(_ branch: JunctionBranch, offset: Double, subPathIndex: UInt8) -> StubMessage {
        var angle = branch.turnAngle.truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        var stub = StubMessage(
            offset: PathOffset.wrapped(Int(offset.rounded())), pathIndex: pathIndex, subPathIndex: subPathIndex,
            // A forbidden turn kept as a zero-probability path goes as 0, "turn not allowed".
            relativeProbability: branch.probability == 0 && !branch.isUTurn
                ? 0 : ValueCoding.probabilityCode(percent: branch.probability * 100),
            partOfCalculatedRoute: routeActive ? .no : .unknown,
            turnAngle: ValueCoding.angleCode(degrees: angle))
        if let road = branch.road ?? lookup.road(branch.link.link).map({ BranchRoad($0, branch.link.direction) }) {
            stub.functionalRoadClass = FunctionalRoadClass(rawValue: road.highway.functionalClass) ?? .unknown
            stub.formOfWay = WireValues.formOfWay(road.formOfWay)
            stub.numberOfLanesDrivingDirection = WireValues.drivingLanes(road.lanes)
            stub.numberOfLanesOppositeDirection = WireValues.oppositeLanes(road.oppositeLanes)
        }
        return stub
    }
}

/// What of a message selection a path's content needs, looked up in the selection's sets once
/// (each lookup hashes the type) rather than at every window of every path.
struct ContentSelection: Sendable {
    /// SEGMENTs, STUBs, and a continuation STUB after each junction's.
    let segment, stub, continuationStubs: Bool
    /// The curvature and slope profiles.
    let curvature, slope: Bool
    /// Safety cameras, and traffic signals (also subscribed to as a road object type).
    let camera, signals: Bool
    /// The traffic-speed profile (while a traffic layer is active).
    let trafficSpeed: Bool
    /// Road objects: points, and zones (start and end).
    let roadObjectPoints, roadObjectZones: Bool
    /// PROFILE LONG link identifiers and shape points.
    let linkIdentifier, longitude, latitude: Bool

    /// What `selection` sends, with `objectTypes` subscribed to.
    init(_ selection: MessageSelection, objectTypes: Set<RoadObjectType>) {
        segment = selection.sends(.segment)
        stub = selection.sends(.stub)
        continuationStubs = selection.continuationStubs
        curvature = selection.sends(.curvature)
        slope = selection.sends(.slopeLinear)
        camera = selection.sends(ProfileShortType.safetyCamera)
        signals = selection.sends(ProfileShortType.trafficSignals) && objectTypes.contains(.trafficSignals)
        trafficSpeed = selection.sends(ProfileShortType.trafficSpeed)
        roadObjectPoints = selection.sends(ProfileShortType.roadObject)
        roadObjectZones = selection.sends(ProfileShortType.roadObjectZoneStart)
        linkIdentifier = selection.sends(ProfileLongType.linkIdentifier)
        longitude = selection.sends(ProfileLongType.longitude)
        latitude = selection.sends(ProfileLongType.latitude)
    }
}
