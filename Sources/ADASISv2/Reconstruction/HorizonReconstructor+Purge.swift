/// Dropping what lies more than the trailing length behind the vehicle.
extension HorizonReconstructor {
    /// Purges every path connected to the vehicle: content before `vehicle − trailingLength` goes,
    /// except the SEGMENT and the spot of each profile type still in force at that line; STUBs there
    /// go with the sub-paths they opened (and their subtrees).
    mutating func purgeTrailing() {
        let connected = horizon.paths.keys.compactMap { index in vehicleOffset(on: index).map { (index, $0) } }
        for (index, vehicle) in connected.sorted(by: { $0.0 < $1.0 }) {
            let line = vehicle - configuration.trailingLength
            guard line > 0, var path = horizon.paths[index] else { continue }
            path.segments = Self.keepingInForce(path.segments, from: line)
            path.profiles = path.profiles.mapValues { Self.keepingInForce($0, from: line) }
            path.stubs = path.stubs.filter { $0.key >= line }
            path.objectMarks = Self.objectMarks(of: path, from: line)
            horizon.paths[index] = path
            let behind = horizon.paths.values.filter { $0.parent == index && ($0.branchOffset ?? line) < line }
            for child in behind {
                for dropped in subtree(of: child.index) { horizon.paths[dropped] = nil }
            }
        }
    }

    /// The road-object marks of objects not wholly behind `line`: points at or after it, zones
    /// whose end is at or after it or not known yet.
    private static func objectMarks(of path: ReconstructedPath, from line: Int) -> [ObjectMark: UInt16] {
        var kept: Set<ObjectMark> = []
        for object in path.objects where (object.end ?? Int.max) >= line {
            if object.isPoint, let offset = object.start {
                kept.insert(ObjectMark(kind: .point, offset: offset, code: object.code))
                continue
            }
            if let start = object.start { kept.insert(ObjectMark(kind: .zoneStart, offset: start, code: object.code)) }
            if let end = object.end { kept.insert(ObjectMark(kind: .zoneEnd, offset: end, code: object.code)) }
        }
        return path.objectMarks.filter { kept.contains($0.key) }
    }

    /// The entries at or after `line`, plus the last one before it (still in force at the line).
    private static func keepingInForce<Value>(_ entries: [Int: Value], from line: Int) -> [Int: Value] {
        let inForce = entries.keys.filter { $0 < line }.max()
        return entries.filter { $0.key >= line || $0.key == inForce }
    }
}
