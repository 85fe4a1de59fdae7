import ADASISv2
import Horizon
import RoadMap

/// Everything that shapes the message stream: what is sent, how far, how often, on which
/// identifiers, within which bus budget.
public struct ProviderConfiguration: Hashable, Sendable {
    /// Which message and profile types are sent.
    public var messages = MessageSelection(preset: .default)
    /// CAN identifiers per message type, or one multiplexed identifier.
    public var identifiers = CANIdentifierAssignment.defaults
    /// Byte order of the 8 payload bytes.
    public var byteOrder = ByteOrder.bigEndian
    /// How far ahead each path level is sent, metres: main path, level 1, level 2, ….
    public var sendRadius: [Double] = [2000, 500, 500]
    /// Seconds between POSITION messages (0.1 = 10 Hz).
    public var positionInterval = 0.1
    /// Seconds between META-DATA messages in steady state.
    public var metaDataInterval = 5.0
    /// Seconds between META-DATA messages during the first ``metaDataStartupDuration`` seconds.
    public var metaDataStartupInterval = 1.0
    /// How long after start META-DATA is sent at the faster startup interval, seconds.
    public var metaDataStartupDuration = 5.0
    /// Seconds between retransmissions of the nearby horizon.
    public var retransmissionInterval = 2.0
    /// How far ahead of the vehicle a retransmission reaches, metres.
    public var retransmissionDistance = 500.0
    /// Horizon frames closer than this to the vehicle go before farther ones, metres.
    public var nearHorizonDistance = 500.0
    /// Content kept (and retransmitted) behind the vehicle, metres; should equal the horizon
    /// engine's trailing length.
    public var trailingLength = 200.0
    /// Length of one scheduling tick, seconds.
    public var tickInterval = 0.1
    /// Bus budget: frames released per tick; the rest waits (horizon) or is dropped (retransmissions).
    public var framesPerTick = 25
    /// Frames waiting beyond this are dropped, farthest horizon first.
    public var maximumQueuedFrames = 1000
    /// Seconds a freed path index stays unused before it may be handed out again.
    public var pathIndexReuseDelay = 10.0
    /// Seconds a freed path index that receivers have dropped stays unused: one whose path a
    /// POSITION on another main path, outside that path's subtree, re-rooted away (receivers
    /// drop what the new main path does not reach). Ten POSITIONs go out in that time, so a
    /// receiver that lost one has had the next. Indices freed otherwise (behind the vehicle, a
    /// changed route) keep ``pathIndexReuseDelay``. At most ``pathIndexReuseDelay``.
    public var pathIndexReuseDelayAfterReRoot = 1.0
    /// Free path indices a side path of probability 0 (an offered U-turn, a turn a restriction
    /// forbids, kept on request) leaves to paths a vehicle may take: it gets an index only while
    /// more than this many are free, and a revival serves it last. In a city grid a tree with
    /// U-turns and a third level holds 100–370 paths for the 56 indices; without this, a U-turn at
    /// every junction of the main path took one before the likelier paths of level 2 and 3
    /// (ullanlinna at 60 s: 13 of the 44 side paths on the bus were U-turns).
    public var indicesKeptFromZeroProbabilityPaths = 8
    /// Most POSITION messages per cycle (PositionIndex 0…3): the matched position, then the
    /// matcher's other candidates on parallel roads that the horizon holds
    /// (``ADASISProvider/offerPositionCandidates(_:)``). 1 sends the matched position only.
    public var maximumPositionCandidates = 4
    /// The least posterior probability an alternative position needs to be sent, `0...1`.
    public var minimumPositionCandidateProbability = 0.1
    /// Without a new fix for this long the position is reported unknown, seconds.
    public var positionStaleAfter = 2.0
    /// The area the map covers (south, west, north, east in degrees): off-road fixes outside it are
    /// reported as "not in digitised area" (path index 1) rather than "not on road" (2).
    public var digitisedArea: [Double]?
    /// The map's country and units for META-DATA.
    public var metaData = MetaDataMessage()
    /// How the links' country and region codes name countries and regions (the map's region list,
    /// ``PlaceCodes/init(map:)``): META-DATA's country, driving side and region follow the link the
    /// vehicle is on, and a change is sent at once.
    public var places = PlaceCodes()

    /// Offset policy; default ``OffsetPolicy/wrap``.
    public var offsetPolicy = OffsetPolicy.wrap

    /// With ``OffsetPolicy/newPathBeforeWrap``: the vehicle offset beyond which a new main path
    /// starts, so that the look-ahead never crosses 8191 m.
    public var newPathOffset: Double {
        Double(PathOffset.period - 1) - sendRadius(level: 0) - 100
    }

    /// The road object types the client subscribed to: only these are computed and sent (as
    /// profiles, when the message selection sends their profile type). Default: every type.
    public var roadObjectTypes = Set(RoadObjectType.allCases)

    /// The defaults: the production-like configuration of `Docs/adasis-conventions.md` (provider policies).
    public init() {}

    /// Send radius of path `level` (the last configured radius for deeper levels).
    public func sendRadius(level: Int) -> Double {
        guard !sendRadius.isEmpty else { return 0 }
        return sendRadius[min(level, sendRadius.count - 1)]
    }

    /// Whether paths of `level` are sent at all: a configured level with a radius above 0.
    func sends(level: Int) -> Bool {
        level < sendRadius.count && sendRadius(level: level) > 0
    }
}
