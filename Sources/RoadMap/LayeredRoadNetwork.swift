/// A road network that reads another one underneath: an overlay of extra features
/// (``FeatureOverlayNetwork``), or a network switched in place while a pipeline reads it (the
/// daemon's traffic). Code that looks for one layer, such as the custom objects' ids, sees
/// through the others with ``RoadNetwork/layers``.
public protocol LayeredRoadNetwork: RoadNetwork {
    /// The network this one reads now.
    var underlying: any RoadNetwork { get }
}

extension RoadNetwork {
    /// This network and every network under it (``LayeredRoadNetwork/underlying``), top first.
    public var layers: [any RoadNetwork] {
        var result: [any RoadNetwork] = [self]
        while let layered = result.last as? any LayeredRoadNetwork { result.append(layered.underlying) }
        return result
    }
}
