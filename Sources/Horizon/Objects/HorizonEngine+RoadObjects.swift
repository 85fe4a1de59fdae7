import RoadMap

extension HorizonEngine {
    /// The subscribed road objects (``HorizonConfiguration/roadObjectTypes``) along `path`, by
    /// start offset; empty for a path not in the tree.
    ///
    /// On the main path, an object whose end lies more than the trailing length behind the
    /// vehicle is gone, as are the links there. Custom objects (a ``CustomObjectOverlay`` network,
    /// or one under other layers, such as the daemon's traffic) carry the client's own ids.
    public func roadObjects(on path: PathID) -> [PathRoadObject] {
        guard let horizonPath = tree.paths[path] else { return [] }
        var objects = horizonPath.roadObjects(types: configuration.roadObjectTypes)
        if let overlay = network.layers.lazy.compactMap({ $0 as? CustomObjectOverlay }).first {
            objects = overlay.namingCustomObjects(objects)
        }
        guard path == tree.mainPathID, let vehicleOffset else { return objects }
        let behind = vehicleOffset - configuration.trailingLength
        return objects.filter { $0.end >= behind }
    }

    /// The subscribed road objects along every path of the tree, by path.
    public var roadObjectsAlongPaths: [PathID: [PathRoadObject]] {
        var result: [PathID: [PathRoadObject]] = [:]
        for id in tree.paths.keys { result[id] = roadObjects(on: id) }
        return result
    }
}

extension HorizonEngine {
    /// The link `id` of ``network`` with the danger zones the legal rules make of cameras
    /// (``DangerZoneDerivation``); its features are then filtered by ``SafetyLocationRules``.
    func legalRoad(_ id: LinkID) throws -> RoadLink {
        let road = try network.link(id)
        return try dangerZones?.addingDangerZones(to: road) ?? road
    }
}
