/// Storing SEGMENTs, STUBs and profile spots at absolute offsets.
extension HorizonReconstructor {
    mutating func apply(_ segment: SegmentMessage) {
        if segment.pathIndex == 4 {
            horizon.currentLinkSegment = segment.content
            return
        }
        guard Self.isRegularPath(segment.pathIndex), let offset = absoluteOffset(segment.offset, on: segment.pathIndex)
        else { return discard(.segment) }
        var path = horizon.paths[segment.pathIndex] ?? ReconstructedPath(index: segment.pathIndex)
        if path.segments[offset] != nil, segment.isRetransmission, !segment.isUpdate {
            return ignoreRetransmission(.segment)
        }
        path.segments[offset] = segment.content
        horizon.paths[segment.pathIndex] = path
    }

    mutating func apply(_ stub: StubMessage) {
        let parent = stub.pathIndex, child = stub.subPathIndex
        let opensPath = Self.isRegularPath(child)
        guard Self.isRegularPath(parent), opensPath || child == 5 || child == 6,
            let offset = absoluteOffset(stub.offset, on: parent)
        else { return discard(.stub) }
        // A sub-path may not be the main path nor an ancestor of its own parent.
        if opensPath, child == horizon.mainPathIndex || child == parent || isAncestor(child, of: parent) {
            return discard(.stub)
        }
        var path = horizon.paths[parent] ?? ReconstructedPath(index: parent)
        var atOffset = path.stubs[offset] ?? []
        // An Update replaces the junction's whole set of STUBs: the first updated STUB at an offset
        // clears what was held there, the following ones (up to LastStubAtOffset) refill it.
        if stub.isUpdate {
            if junctionBeingUpdated.map({ $0.path != parent || $0.offset != offset }) ?? true { atOffset = [] }
            junctionBeingUpdated = stub.isLastStubAtOffset ? nil : (parent, offset)
        } else {
            junctionBeingUpdated = nil
        }
        let held = atOffset.firstIndex { $0.subPathIndex == child && (opensPath || $0.turnAngle == stub.turnAngle) }
        if held != nil, stub.isRetransmission, !stub.isUpdate { return ignoreRetransmission(.stub) }
        if let held { atOffset[held] = stub.content } else { atOffset.append(stub.content) }
        path.stubs[offset] = atOffset
        horizon.paths[parent] = path
        if opensPath { place(child, under: parent, at: offset, announcedBy: stub.content) }
    }

    /// Places sub-path `child` below `parent`. A path that no STUB had placed yet keeps its content;
    /// one placed elsewhere before is an index reused for another road: it is dropped with its subtree.
    private mutating func place(_ child: UInt8, under parent: UInt8, at offset: Int, announcedBy stub: StubMessage) {
        if let existing = horizon.paths[child], existing.parent != nil,
            existing.parent != parent || existing.branchOffset != offset
        {
            for index in subtree(of: child) { horizon.paths[index] = nil }
        }
        var path = horizon.paths[child] ?? ReconstructedPath(index: child)
        path.parent = parent
        path.branchOffset = offset
        path.announcingStub = stub
        horizon.paths[child] = path
    }

    /// Whether `candidate` is `index` or above it in the tree.
    private func isAncestor(_ candidate: UInt8, of index: UInt8) -> Bool {
        var current: UInt8? = index
        for _ in 0..<64 {
            guard let path = current else { return false }
            if path == candidate { return true }
            current = horizon.paths[path]?.parent
        }
        return false
    }

    mutating func apply(_ profile: ProfileShortMessage) {
        guard Self.isRegularPath(profile.pathIndex), let offset = absoluteOffset(profile.offset, on: profile.pathIndex)
        else { return discard(.profileShort) }
        if let kind = ObjectMark.kind(of: profile.profileType) {
            var path = horizon.paths[profile.pathIndex] ?? ReconstructedPath(index: profile.pathIndex)
            let mark = ObjectMark(kind: kind, offset: offset, code: profile.value0)
            if path.objectMarks[mark] != nil, profile.isRetransmission, !profile.isUpdate {
                return ignoreRetransmission(.profileShort)
            }
            // An Update with Distance1 = 1023 withdraws the mark (the object is gone).
            path.objectMarks[mark] = profile.isUpdate && profile.distance1 == 1023 ? nil : profile.value1
            horizon.paths[profile.pathIndex] = path
            return
        }
        var spots = [(offset, UInt32(profile.value0))]
        if profile.hasSecondSpot { spots.append((offset + Int(profile.distance1), UInt32(profile.value1))) }
        store(
            spots, type: .short(profile.profileType), on: profile.pathIndex, messageType: .profileShort,
            accuracy: profile.accuracy, isControlPoint: profile.isControlPoint,
            isRetransmission: profile.isRetransmission && !profile.isUpdate)
    }

    mutating func apply(_ profile: ProfileLongMessage) {
        guard Self.isRegularPath(profile.pathIndex), let offset = absoluteOffset(profile.offset, on: profile.pathIndex)
        else { return discard(.profileLong) }
        store(
            [(offset, profile.value)], type: .long(profile.profileType), on: profile.pathIndex,
            messageType: .profileLong, accuracy: nil, isControlPoint: profile.isControlPoint,
            isRetransmission: profile.isRetransmission && !profile.isUpdate)
    }

    /// Stores spots; a retransmission only fills spots not held yet (counted as ignored when it
    /// brings nothing new).
    private mutating func store(
        _ spots: [(Int, UInt32)], type: ProfileType, on index: UInt8, messageType: MessageType,
        accuracy: ProfileAccuracy?, isControlPoint: Bool, isRetransmission: Bool
    ) {
        var path = horizon.paths[index] ?? ReconstructedPath(index: index)
        var held = path.profiles[type] ?? [:]
        var stored = false
        for (offset, value) in spots where !(isRetransmission && held[offset] != nil) {
            held[offset] = ProfileSpot(value: value, accuracy: accuracy, isControlPoint: isControlPoint)
            stored = true
        }
        guard stored else { return ignoreRetransmission(messageType) }
        path.profiles[type] = held
        horizon.paths[index] = path
    }
}
