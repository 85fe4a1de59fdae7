/// ISO 8601 date-times as GPX writes them: `YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]` (no zone = UTC).
enum ISO8601Time {
    /// Seconds since 1970-01-01T00:00:00Z, or `nil` when `text` is not such a date-time.
    static func seconds(_ text: String) -> Double? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for k in at..<(at + count) {
                guard (0x30...0x39).contains(b[k]) else { return nil }
                value = value * 10 + Int(b[k] - 0x30)
            }
            return value
        }
        guard b.count >= 19, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...daysIn(month, year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var scale = 0.1
            let begin = i
            while i < b.count, (0x30...0x39).contains(b[i]) {
                fraction += Double(b[i] - 0x30) * scale; scale /= 10; i += 1
            }
            guard i > begin else { return nil }
        }
        var zone = 0
        if i < b.count {
            if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                i += 1
            } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                guard let zh = digits(i + 1, 2), zh < 24 else { return nil }
                var zm = 0
                if i + 3 < b.count {
                    let colon = b[i + 3] == UInt8(ascii: ":") ? 1 : 0
                    guard let m = digits(i + 3 + colon, 2), m < 60 else { return nil }
                    zm = m
                    i += 3 + colon + 2
                } else {
                    i += 3
                }
                zone = sign * (zh * 3600 + zm * 60)
            }
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - zone) + fraction
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
