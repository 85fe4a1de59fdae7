import RoadMap

/// How far the horizon reaches, how deep it branches and how often it is recomputed.
public struct HorizonConfiguration: Hashable, Sendable {
    /// Look-ahead per path level, metres ahead of the vehicle measured along the tree: index 0 is
    /// the main path, index 1 side paths branching off it, and so on. Levels beyond the array use
    /// its last value. Default `[2000, 500, 500]`. A recomputation grows side paths
    /// ``minimumUpdateDistance`` further (``growthReach(level:)``), so that they still reach their
    /// look-ahead when the vehicle has driven on until the next one.
    public var lookAhead: [Double]
    /// The deepest side-path level built (0 = main path only), any level ≥ 0. Default 2; level 3
    /// with U-turns covers more of the true next 500 m in the city (`Docs/horizon-model.md`).
    public var maximumLevel: Int
    /// Whether paths one level deeper than ``maximumLevel`` are added one link long, as HERE
    /// does: every junction of a level-``maximumLevel`` path within the look-ahead of the next
    /// level gets its continuations as one-link paths that are never extended nor branched.
    /// Default `false`.
    public var addsOneLinkLevel = false
    /// Whether continuations the road graph connects but a turn restriction forbids are kept as
    /// side paths with probability 0 (HERE's zero-probability paths, on request), so the client
    /// can filter them; they are listed after the legal continuations of their junction and the
    /// main path never takes them. Default `false`.
    public var keepsZeroProbabilityPaths = false
    /// Whether the U-turns the branch model offers (``BranchProbabilityModel/offersUTurns``)
    /// become side paths at the junctions of side paths too, not only of the main path
    /// (`adasis horizon --u-turns-off-side-paths`, daemon `[horizon] u_turns_off_side_paths`).
    /// Default `false`: U-turns off the main path carry most of their coverage for a third of the
    /// U-turn paths. With ``maximumLevel`` 3 the engine's tree holds a wrong turn, a U-turn and
    /// the way back (esplanadi: 87.6 → 99.4 % of the true next 500 m, every noisy drive ≥ 99.4 %),
    /// but on the bus the extra paths compete for the 56 path indices (91.2 % there, and
    /// kaisaniemi 99.5 → 97.6 %; `Docs/horizon-model.md`, "U-turns on request").
    public var uTurnsOffSidePaths = false
    /// How much less probable (absolute, `0...1`) a continuation may be than the main path's own
    /// at a junction to be reported as an alternative most probable path
    /// (``HorizonEngine/mostProbablePath``). Default 0.05, Mapbox's 5 %.
    public var mostProbablePathTolerance = 0.05
    /// Whether, and how, the vehicle stays on the main path while the matcher is unsure at a
    /// narrow fork (``UnsureFork``); `nil` turns onto the side path at the first fix matched on
    /// it. Default ``UnsureFork/init(distance:angle:ratio:)``.
    public var unsureFork: UnsureFork? = UnsureFork()
    /// How far the main path may grow in one update, metres. It always reaches at once the
    /// look-ahead of the side paths (level 1) and this much beyond (a margin for a matched
    /// position that lags the vehicle). After a new tree (the first fix, a discontinuity) or a
    /// turn onto a side path (which reached only level 1's look-ahead), the main path then
    /// reaches its own look-ahead over the next few updates instead of in one:
    /// placing and sending its far links is spread over several fixes rather than added to the
    /// costliest one, and the receiver gets the far main path a few seconds later, far ahead of
    /// when it matters. Until the main path has caught up, every update grows it, whether or not
    /// ``minimumUpdateInterval`` and ``minimumUpdateDistance`` have passed. Default 300 (with the
    /// default look-ahead: 800 m at a turn, 2000 m four updates later); `.infinity` grows it at once.
    public var mainPathGrowthPerUpdate: Double
    /// Metres of the main path kept behind the vehicle. Default 200.
    public var trailingLength: Double
    /// Side paths (with their children) whose branch point lies farther behind the vehicle than
    /// this are removed; never more than ``trailingLength``. Default 100: room for a matcher that
    /// finds a turn late (four fixes at 25 m/s), while the ADASIS path indices (56) of the side
    /// paths the vehicle left go to those ahead (`Docs/horizon-model.md`, "Trailing").
    public var sidePathTrailingLength: Double = 100
    /// Minimum seconds between two full recomputations of the tree. Default 1.
    public var minimumUpdateInterval: Double
    /// Minimum metres driven between two full recomputations of the tree. Default 10.
    public var minimumUpdateDistance: Double
    /// The model that weighs continuations at junctions.
    public var branchModel: BranchProbabilityModel
    /// The road object types the client subscribed to: only these are computed along the paths
    /// (``HorizonEngine/roadObjects(on:)``). Default: every type.
    public var roadObjectTypes: Set<RoadObjectType>
    /// The legal filter: safety locations it forbids where they lie (the country and region of
    /// their own link) never enter the tree, so no path, query, event or message carries them.
    /// Default: none forbidden.
    public var safetyLocationRules = SafetyLocationRules.allowingAll
    /// How the links' country and region codes name countries and regions (the map's regions),
    /// for the legal filter's region rows.
    public var places = PlaceCodes()

    /// Creates a configuration; the defaults are those of production horizon SDKs.
    public init(
        lookAhead: [Double] = [2000, 500, 500], maximumLevel: Int = 2, trailingLength: Double = 200,
        minimumUpdateInterval: Double = 1, minimumUpdateDistance: Double = 10,
        mainPathGrowthPerUpdate: Double = 300, branchModel: BranchProbabilityModel = .init(),
        roadObjectTypes: Set<RoadObjectType> = Set(RoadObjectType.allCases)
    ) {
        self.mainPathGrowthPerUpdate = mainPathGrowthPerUpdate
        self.roadObjectTypes = roadObjectTypes
        self.lookAhead = lookAhead
        self.maximumLevel = maximumLevel
        self.trailingLength = trailingLength
        self.minimumUpdateInterval = minimumUpdateInterval
        self.minimumUpdateDistance = minimumUpdateDistance
        self.branchModel = branchModel
    }

    /// The look-ahead of paths at `level`.
    public func lookAhead(level: Int) -> Double {
        guard let last = lookAhead.last else { return 0 }
        return level < lookAhead.count ? lookAhead[max(0, level)] : last
    }

    /// How far a recomputation grows the paths of `level`, metres ahead of the vehicle along the
    /// tree: the main path its look-ahead; side paths theirs plus ``minimumUpdateDistance``, the
    /// least the vehicle drives before the next recomputation, so that between two recomputations
    /// the side paths still reach their look-ahead ahead of the vehicle (and the junctions up to it
    /// have theirs) rather than falling short of it by the distance driven since.
    public func growthReach(level: Int) -> Double {
        lookAhead(level: level) + (level > 0 ? minimumUpdateDistance : 0)
    }

    /// ``mainPathGrowthPerUpdate`` from a setting in metres where 0 means at once (the daemon's
    /// `horizon.main_path_growth_m`, the tools' `--main-path-growth`): `.infinity` for 0.
    public static func mainPathGrowth(setting metres: Double) -> Double { metres > 0 ? metres : .infinity }

    /// Checks that every number is usable.
    ///
    /// - Throws: ``HorizonError/invalidConfiguration(_:)`` naming the bad setting.
    public func validate() throws {
        if lookAhead.isEmpty || lookAhead.contains(where: { !$0.isFinite || $0 <= 0 }) {
            throw HorizonError.invalidConfiguration(
                "lookAhead must hold at least one finite length > 0 m, got \(lookAhead)")
        }
        if mainPathGrowthPerUpdate.isNaN || mainPathGrowthPerUpdate <= 0 {
            throw HorizonError.invalidConfiguration(
                "mainPathGrowthPerUpdate must be > 0 m (.infinity: at once), got \(mainPathGrowthPerUpdate)")
        }
        try unsureFork?.validate()
        if maximumLevel < 0 {
            throw HorizonError.invalidConfiguration("maximumLevel must be 0 or more, got \(maximumLevel)")
        }
        if !mostProbablePathTolerance.isFinite || !(0...1).contains(mostProbablePathTolerance) {
            throw HorizonError.invalidConfiguration(
                "mostProbablePathTolerance must be a probability difference in 0…1, got \(mostProbablePathTolerance)")
        }
        if !branchModel.deadEndFactor.isFinite || !(0...1).contains(branchModel.deadEndFactor) {
            throw HorizonError.invalidConfiguration(
                "branchModel.deadEndFactor must be a factor in 0…1, got \(branchModel.deadEndFactor)")
        }
        for (name, value) in [
            ("branchModel.deadEndReach", branchModel.deadEndReach), ("trailingLength", trailingLength),
            ("sidePathTrailingLength", sidePathTrailingLength),
            ("minimumUpdateInterval", minimumUpdateInterval), ("minimumUpdateDistance", minimumUpdateDistance),
        ] where !value.isFinite || value < 0 {
            throw HorizonError.invalidConfiguration("\(name) must be a finite number ≥ 0, got \(value)")
        }
    }
}
