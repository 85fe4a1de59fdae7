/// How a GNSS receiver reports the quality of its solution.
public enum FixQuality: UInt8, Hashable, Sendable, Codable {
    /// No position (receiver lost the sky).
    case noFix
    /// 2-D fix (no altitude).
    case fix2D
    /// 3-D fix.
    case fix3D
    /// Differential / SBAS corrected.
    case differential
    /// RTK fixed or float.
    case rtk
    /// Dead-reckoned by the receiver.
    case deadReckoning
}

/// One GNSS fix: the input of map matching. Time comes from the fix, never from the wall clock.
public struct GNSSFix: Hashable, Sendable, Codable {
    /// Seconds on the trace's time line (Unix time for live receivers, seconds from start for traces).
    public var time: Double
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Horizontal accuracy (1 sigma) in metres, when the receiver reports it.
    public var horizontalAccuracy: Double?
    /// Ground speed in metres per second, when known.
    public var speed: Double?
    /// Course over ground in degrees clockwise from true north, when known.
    public var heading: Double?
    /// Altitude above mean sea level, metres, when known.
    public var altitude: Double?
    /// Solution quality.
    public var quality: FixQuality
    /// Accuracy (1 sigma) of ``speed`` in metres per second, when the receiver reports it (gpsd's
    /// `eps`): how far dead reckoning from the speeds may be trusted.
    public var speedAccuracy: Double?
    /// Accuracy (1 sigma) of ``heading`` in degrees, when the receiver reports it (gpsd's `epd`).
    public var headingAccuracy: Double?

    /// Creates a fix.
    public init(
        time: Double, latitude: Double, longitude: Double, horizontalAccuracy: Double? = nil,
        speed: Double? = nil, heading: Double? = nil, altitude: Double? = nil,
        quality: FixQuality = .fix3D, speedAccuracy: Double? = nil, headingAccuracy: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.speed = speed
        self.heading = heading
        self.altitude = altitude
        self.quality = quality
        self.speedAccuracy = speedAccuracy
        self.headingAccuracy = headingAccuracy
    }
}
