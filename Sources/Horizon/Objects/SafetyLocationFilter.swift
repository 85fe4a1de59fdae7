import RoadMap

extension PathFeature {
    /// The safety-location type of the feature for the legal filter, `nil` when it is none: a
    /// camera of unknown type counts as a fixed speed camera (most mapped cameras are).
    public var safetyLocationType: RoadObjectType? {
        switch kind {
        case .safetyCamera(let camera, _): RoadObjectType(camera: camera) ?? .fixedSpeedCamera
        case .zone(let piece): piece.type.isSafetyLocation ? piece.type : nil
        default: nil
        }
    }
}

extension SafetyLocationRules {
    /// The features of `link` without the safety locations these rules forbid where they lie: in
    /// the link's own country and region (`places` names them), whatever country the vehicle is
    /// in. A zone over several links loses the pieces on links where it is forbidden.
    public func allowedFeatures(of link: PathLink, places: PlaceCodes) -> [PathFeature] {
        guard !rules.isEmpty, link.features.contains(where: { $0.safetyLocationType != nil }) else {
            return link.features
        }
        let country = places.country(link.attributes.countryCode)
        let region = places.region(link.attributes.regionCode)
        return link.features.filter { feature in
            feature.safetyLocationType.map { allows($0, country: country, region: region) } ?? true
        }
    }
}
