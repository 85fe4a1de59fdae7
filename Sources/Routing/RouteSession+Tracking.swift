import RoadMap

extension RouteSession {
    /// Whether a position off the route lies within ``RouteSessionConfiguration/offRouteDistance``
    /// of the route's links around the vehicle.
    func isNear(_ position: VehiclePosition, _ route: ActiveRoute) -> Bool {
        nearest(to: position.point, on: route) != nil
    }

    /// Route tracking for the horizon: a position matched off the route but within
    /// ``RouteSessionConfiguration/offRouteDistance`` of it (the matcher slipped onto the other
    /// carriageway or a side street) moved to the nearest point of the route's links around the
    /// vehicle, in the route's direction. `nil` when the position is on the route or on a pending
    /// proposal's own links (the driver deciding by steering), far from the route, or there is no
    /// route. A vehicle that really turned off is beyond the distance within a few seconds, and is
    /// then a deviation.
    public func snapped(_ position: VehiclePosition) -> VehiclePosition? {
        guard let route = active, route.index(of: position.link) == nil else { return nil }
        if let proposal, proposal.links[proposal.sharedLinks...].contains(position.link) { return nil }
        return nearest(to: position.point, on: route)
    }

    /// The nearest point within the off-route distance on the route's links from one behind the
    /// vehicle's progress to twenty ahead.
    private func nearest(to point: GeoPoint, on route: ActiveRoute) -> VehiclePosition? {
        guard configuration.offRouteDistance > 0 else { return nil }
        var best: (distance: Double, position: VehiclePosition)?
        for directed in route.links[max(route.progress - 1, 0)..<min(route.progress + 20, route.links.count)] {
            guard let link = try? planner.network.link(directed.link),
                let projection = link.geometry.project(point),
                projection.distance <= configuration.offRouteDistance, projection.distance < best?.distance ?? .infinity
            else { continue }
            let offset = directed.direction == .forward ? projection.offset : link.length - projection.offset
            best = (projection.distance, VehiclePosition(link: directed, offset: offset, point: projection.point))
        }
        return best?.position
    }
}
