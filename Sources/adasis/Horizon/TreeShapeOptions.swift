import ArgumentParser
import Horizon

/// How deep the horizon tree branches, which zero-probability paths and U-turns it keeps, and
/// whether it holds the main path at an unsure fork (`adasis horizon`, `adasis replay`).
struct TreeShapeOptions: ParsableArguments {
    @Option(help: "Deepest side-path level (0 = main path only); any level ≥ 0, deeper levels look 500 m ahead.")
    var maxLevel = HorizonConfiguration().maximumLevel

    @Flag(help: "Add paths one level below --max-level, one link long (as HERE does).")
    var oneLinkLevel = false

    @Flag(
        help: """
            Keep turns a turn restriction forbids as side paths with probability 0 (HERE's \\
            zero-probability paths), so the client can filter them.
            """)
    var zeroProbabilityPaths = false

    @Flag(
        inversion: .prefixedNo,
        help: """
            Offer legal U-turns at the main path's junctions (and where a two-way road goes on only \
            one-way) as side paths with probability 0 (as HERE does); each goes back the way the \
            vehicle came.
            """)
    var uTurns = BranchProbabilityModel().offersUTurns

    @Flag(
        help: """
            With --u-turns, offer them at the side paths' junctions too. With --max-level 3 the tree \
            holds more returns (a wrong turn, a U-turn, back to the road left), for more paths on the bus.
            """)
    var uTurnsOffSidePaths = HorizonConfiguration().uTurnsOffSidePaths

    @Flag(
        inversion: .prefixedNo,
        help: """
            While the matcher is unsure just past a narrow fork (ways within 30°, the vehicle within \
            25 m of it, the main road at least 0.3 of the side road's probability), keep the vehicle \
            on the main path and send the side road as a second POSITION.
            """)
    var unsureFork = HorizonConfiguration().unsureFork != nil

    @Option(
        help: """
            Weight of a continuation whose every way on ends within 120 m of the junction (a \\
            cul-de-sac), against the others at that junction; 1 turns the rule off.
            """)
    var culDeSacFactor = BranchProbabilityModel().deadEndFactor

    @Option(
        help: """
            After a new tree or a turn onto a side path the main path holds the side paths' 500 m \
            and this many metres more, then grows this many metres per fix until it reaches its \
            2000 m, so a turn's work is spread over a few fixes; 0 grows it at once.
            """)
    var mainPathGrowth = HorizonConfiguration().mainPathGrowthPerUpdate

    func validate() throws {
        if !(mainPathGrowth >= 0) || mainPathGrowth.isInfinite {
            throw ValidationError("--main-path-growth must be a number of metres ≥ 0, got \(mainPathGrowth)")
        }
        if maxLevel < 0 { throw ValidationError("--max-level must be 0 or more, got \(maxLevel)") }
        if uTurnsOffSidePaths, !uTurns { throw ValidationError("--u-turns-off-side-paths needs --u-turns") }
        if !(0...1).contains(culDeSacFactor) {
            throw ValidationError("--cul-de-sac-factor must be a factor in 0…1, got \(culDeSacFactor)")
        }
    }

    /// `configuration` with these options applied.
    func applied(to configuration: HorizonConfiguration) -> HorizonConfiguration {
        var configuration = configuration
        configuration.maximumLevel = maxLevel
        configuration.addsOneLinkLevel = oneLinkLevel
        configuration.keepsZeroProbabilityPaths = zeroProbabilityPaths
        configuration.branchModel.offersUTurns = uTurns
        configuration.uTurnsOffSidePaths = uTurnsOffSidePaths
        if !unsureFork { configuration.unsureFork = nil }
        configuration.branchModel.deadEndFactor = culDeSacFactor
        configuration.mainPathGrowthPerUpdate = HorizonConfiguration.mainPathGrowth(setting: mainPathGrowth)
        return configuration
    }

    /// The provider's send radius per level for `configuration`: every built level is sent, the
    /// one-link level too.
    static func sendRadius(_ configuration: HorizonConfiguration) -> [Double] {
        let deepest = configuration.maximumLevel + (configuration.addsOneLinkLevel ? 1 : 0)
        return (0...deepest).map { configuration.lookAhead(level: $0) }
    }
}
