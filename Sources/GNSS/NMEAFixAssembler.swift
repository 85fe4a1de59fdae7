import InputPolicy

/// Merges the NMEA sentences of one epoch (same UTC time) into one ``GNSSFix``.
///
/// Feed lines in order with ``add(line:)``; a fix is emitted when a sentence of a later epoch
/// arrives, and the last one by ``finish()``. Time comes from RMC's date and time (Unix seconds);
/// a GGA-only epoch uses the last known date, advanced by a day when the time of day wraps past
/// midnight. Epochs before any date is known are dropped and counted. Rejected sentences are
/// counted by reason and skipped, never fatal. No wall clock is read.
public struct NMEAFixAssembler: Sendable {
    /// The user-equivalent range error (1 sigma, metres) multiplied by HDOP to estimate horizontal
    /// accuracy when the receiver gives nothing better. 5 m is typical for an automotive receiver.
    public var userEquivalentRangeError: Double

    /// Sentences rejected, by reason.
    public private(set) var rejected: [NMEARejection: Int] = [:]
    /// Epochs dropped because no date was known yet (GGA before the first RMC).
    public private(set) var epochsWithoutDate = 0
    /// Fixes emitted.
    public private(set) var fixesEmitted = 0
    /// Every rejected sentence and dropped epoch with its line (unsupported sentence types, which
    /// are not errors in the data, are counted in ``rejected`` only).
    public private(set) var skipped = SkippedRecords()
    /// The line of the first sentence of the epoch of the last fix emitted (0 before any).
    public private(set) var lineOfLastFix = 0

    private var epochTime: Double?
    private var rmc: NMEASentence.RMC?
    private var gga: NMEASentence.GGA?
    private var vtg: NMEASentence.VTG?
    private var lastDay: Int?
    private var lastSecondsOfDay: Double?
    private var linesAdded = 0
    private var epochLine = 0

    /// Creates an assembler.
    public init(userEquivalentRangeError: Double = 5) {
        self.userEquivalentRangeError = userEquivalentRangeError
    }

    /// Adds one line; returns the fix of the previous epoch when this line starts a new one.
    /// `lineNumber` is the line's 1-based number in its file, for the records of what was skipped;
    /// without it, lines are numbered in the order they are added.
    public mutating func add(line: Substring, lineNumber: Int? = nil) -> GNSSFix? {
        linesAdded += 1
        let number = lineNumber ?? linesAdded
        let sentence: NMEASentence
        switch NMEASentence.parse(line) {
        case .success(let s): sentence = s
        case .failure(let reason):
            rejected[reason, default: 0] += 1
            if reason != .unsupportedType {
                skipped.add(
                    SkippedRecord(
                        line: number, reason: reason.rawValue, detail: "\(reason.rawValue): \(line.prefix(100))"))
            }
            return nil
        }
        let time: Double?
        switch sentence {
        case .rmc(let r): time = r.secondsOfDay
        case .gga(let g): time = g.secondsOfDay
        case .vtg: time = nil  // VTG has no time: it belongs to the current epoch.
        }
        var emitted: GNSSFix?
        if let time, let current = epochTime, time != current {
            emitted = flush()
        }
        if time != nil, epochTime == nil { epochLine = number }
        if let time { epochTime = time }
        switch sentence {
        case .rmc(let r): rmc = r
        case .gga(let g): gga = g
        case .vtg(let v): vtg = v
        }
        return emitted
    }

    /// Emits the fix of the epoch in progress, if any.
    public mutating func finish() -> GNSSFix? { flush() }

    private mutating func flush() -> GNSSFix? {
        defer { rmc = nil; gga = nil; vtg = nil; epochTime = nil }
        guard let secondsOfDay = epochTime else { return nil }
        var day: Int
        if let d = rmc?.daysSinceEpoch {
            day = d
        } else if let known = lastDay {
            day = known
            if let previous = lastSecondsOfDay, secondsOfDay < previous - 43_200 { day += 1 }
        } else {
            epochsWithoutDate += 1
            skipped.add(
                SkippedRecord(
                    line: epochLine, reason: "no date yet",
                    detail: "an epoch before the first RMC sentence has no date, so no time; dropped"))
            return nil
        }
        lastDay = day
        lastSecondsOfDay = secondsOfDay
        guard let latitude = rmc?.latitude ?? gga?.latitude, let longitude = rmc?.longitude ?? gga?.longitude else {
            return nil
        }
        let quality: FixQuality
        if let rmc, !rmc.isValid {
            quality = .noFix
        } else if let gga {
            switch gga.qualityIndicator {
            case 0: quality = .noFix
            case 2, 3: quality = .differential
            case 4, 5: quality = .rtk
            case 6: quality = .deadReckoning
            default: quality = gga.altitude == nil ? .fix2D : .fix3D
            }
        } else {
            quality = .fix2D
        }
        fixesEmitted += 1
        lineOfLastFix = epochLine
        return GNSSFix(
            time: Double(day) * 86_400 + secondsOfDay, latitude: latitude, longitude: longitude,
            horizontalAccuracy: gga?.hdop.map { $0 * userEquivalentRangeError },
            speed: rmc?.speed ?? vtg?.speed, heading: rmc?.course ?? vtg?.course,
            altitude: gga?.altitude, quality: quality)
    }
}
