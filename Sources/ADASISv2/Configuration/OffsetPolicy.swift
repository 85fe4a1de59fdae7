/// What a provider does as offsets approach 8191 m on a long main path; the raw value is the
/// configuration key (`provider.offset_policy`, `replay --offset-policy`).
public enum OffsetPolicy: String, Hashable, Sendable, CaseIterable {
    /// Offsets wrap modulo 8191; receivers unwrap them against the vehicle position (the
    /// transmitted window, trailing + send radius, stays far below 8191 m).
    case wrap
    /// A new main path (new index, offsets from 0) is started at the vehicle before the
    /// window would reach 8191 m, for receivers that do not unwrap.
    case newPathBeforeWrap = "new_path"
}
