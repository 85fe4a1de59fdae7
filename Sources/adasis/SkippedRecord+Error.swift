import InputPolicy

extension SkippedRecord {
    /// A skipped record for `error` at `line`; the error's own `line N: ` prefix is left out of the
    /// detail, as the record adds it.
    init(line: Int, reason: String, error: any Error) {
        var detail = "\(error)"
        let prefix = "line \(line): "
        if detail.hasPrefix(prefix) { detail.removeFirst(prefix.count) }
        self.init(line: line, reason: reason, detail: detail)
    }
}
