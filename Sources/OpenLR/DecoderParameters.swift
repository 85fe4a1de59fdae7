/// The decoder's tolerances and scoring weights (documented in Docs/traffic-feed.md).
public struct DecoderParameters: Hashable, Sendable {
    /// Links farther than this from a point (metres) are no candidates for it.
    public var searchRadius = 60.0
    /// A candidate whose bearing differs from the point's by more than this (degrees) is dropped.
    public var maximumBearingDifference = 50.0
    /// Candidates kept per point, best first.
    public var candidatesPerPoint = 10
    /// A candidate must score at least this (0 ... 1).
    public var minimumScore = 0.3
    /// Weights of distance, bearing, FRC and FOW in a candidate's score (they sum to 1).
    public var distanceWeight = 0.4, bearingWeight = 0.3, classWeight = 0.15, formWeight = 0.15
    /// A path between two points may differ from the coded DNP by this much (metres) plus
    /// ``relativeLengthTolerance`` of the DNP: half a DNP interval (29.3 m) for the coding, plus
    /// the two points' projection errors.
    public var absoluteLengthTolerance = 60.0
    /// The share of the DNP a path may differ by, beyond ``absoluteLengthTolerance``.
    public var relativeLengthTolerance = 0.15
    /// Links up to this many classes less important than the LFRCNP may be used between points.
    public var classTolerance: UInt8 = 1
    /// A point projected this close (metres) to a link's end is taken to lie at the junction: a
    /// point's coordinates are rounded to about 1–2.4 m in the binary format.
    public var nodeSnapDistance = 5.0
    /// Metres along a line over which a candidate's bearing is measured (whitepaper: 20 m).
    public var bearingDistance = 20.0

    /// The defaults above.
    public init() {}
}
