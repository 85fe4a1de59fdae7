import RoadMap

extension HorizonEngine {
    /// Reads the point features and zone pieces of every link in the tree again from ``network``
    /// (whose objects changed underneath, as when traffic incidents start or end) and keeps the
    /// tree otherwise as it is: the same paths, identifiers, offsets and branches. Returns whether
    /// any link's features changed; the provider then sends what changed
    /// (`ADASISProvider.contentChanged(tree:)`).
    ///
    /// Call it whenever the network's objects change: the engine keeps every link as it first
    /// placed it and places it again from that copy, so without this call links added later would
    /// still carry the objects read before the change.
    ///
    /// - Throws: the network's error when a link cannot be read (the tree is left unchanged).
    public func refreshFeatures() throws -> Bool {
        // Links placed before hold the features read then.
        placedLinks.removeAll()
        var refreshed = tree
        var changed = false
        for (id, path) in tree.paths {
            for (position, link) in path.links.enumerated() {
                let road = try legalRoad(link.link.link)
                var fresh = PathLink(
                    road: road, direction: link.link.direction, startOffset: link.startOffset,
                    exitBranches: link.exitBranches, routeIndex: link.routeIndex)
                fresh.features = configuration.safetyLocationRules.allowedFeatures(
                    of: fresh, places: configuration.places)
                if fresh.features != link.features {
                    refreshed.paths[id]?.links[position].features = fresh.features
                    changed = true
                }
            }
        }
        if changed { tree = refreshed }
        return changed
    }
}
