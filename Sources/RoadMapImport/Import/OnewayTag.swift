import RoadMap

extension Oneway {
    /// The one-way setting of a car road from its tags: `oneway=yes|true|1` → forward,
    /// `oneway=-1|reverse` → backward, `oneway=no|false|0` → both; without a usable `oneway`
    /// tag, roundabouts and motorways (not their links) are implied one-way forward.
    /// Unusable values such as `oneway=reversible` or `alternating` are treated as two-way.
    public init(tags: [String: String], highwayClass: HighwayClass) {
        switch tags["oneway"] {
        case "yes"?, "true"?, "1"?: self = .forward
        case "-1"?, "reverse"?: self = .backward
        case "no"?, "false"?, "0"?: self = .no
        default:
            let junction = tags["junction"]
            if junction == "roundabout" || junction == "circular" || highwayClass == .motorway {
                self = .forward
            } else {
                self = .no
            }
        }
    }
}
