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
            horizon.paths[index] = path
            let behind = horizon.paths.values.filter { $0.parent == index && ($0.branchOffset ?? line) < line }
            for child in behind {
                for dropped in subtree(of: child.index) { horizon.paths[dropped] = nil }
            }
        }
    }

    /// The entries at or after `line`, plus the last one before it (still in force at the line).
    private static func keepingInForce<Value>(_ entries: [Int: Value], from line: Int) -> [Int: Value] {
        let inForce = entries.keys.filter { $0 < line }.max()
        return entries.filter { $0.key >= line || $0.key == inForce }
    }
}
