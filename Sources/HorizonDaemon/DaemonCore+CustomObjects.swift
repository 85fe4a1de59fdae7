import RoadMap

extension DaemonCore {
    /// The custom objects changed (a call of the custom-object interface): the pipeline reads
    /// `network` from now on, the same map with the new objects laid over it. The horizon is
    /// rebuilt at once from the last fix (the stream continues, as after a reload), so the next
    /// tick sends it with the change; the route and the matcher go on (the roads are the same).
    public mutating func useCustomObjects(_ network: any RoadNetwork) -> [DaemonEffect] {
        map = network
        // With traffic, its objects are laid over the new custom objects (that rebuilds the pipeline
        // and gives it the last fix); without, the pipeline is rebuilt on the new network here.
        if traffic.feed != nil, lastFix != nil {
            return placeTrafficOnNewMap() + [
                .log(.notice, "custom objects changed: horizon rebuilt with them")
            ]
        }
        var effects = replacePipeline(reason: "custom objects changed", continuingMatching: true)
        processLastFixAgain()
        effects.append(.log(.notice, "custom objects changed: horizon rebuilt with them"))
        return effects
    }
}
