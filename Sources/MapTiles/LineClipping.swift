/// A rectangle in a tile's grid, edges included.
struct GridRectangle: Sendable {
    var minimumX: Double, minimumY: Double, maximumX: Double, maximumY: Double

    func contains(_ point: (x: Double, y: Double)) -> Bool {
        point.x >= minimumX && point.x <= maximumX && point.y >= minimumY && point.y <= maximumY
    }

    /// The pieces of the polyline `points` inside the rectangle, in order: each segment is cut
    /// with Liang–Barsky, and pieces that meet are joined.
    func clip(_ points: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        for (start, end) in zip(points, points.dropFirst()) {
            guard let (enter, exit) = clipSegment(start, end) else {
                if !current.isEmpty { pieces.append(current) }
                current = []
                continue
            }
            if current.isEmpty {
                current = [enter]
            } else if let last = current.last, last.x != enter.x || last.y != enter.y {
                pieces.append(current)
                current = [enter]
            }
            current.append(exit)
            if exit.x != end.x || exit.y != end.y {  // left the rectangle
                pieces.append(current)
                current = []
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.filter { $0.count >= 2 }
    }

    /// The part of the segment inside, or `nil` when none is.
    private func clipSegment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (
        (x: Double, y: Double), (x: Double, y: Double)
    )? {
        var low = 0.0, high = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - minimumX), (dx, maximumX - a.x), (-dy, a.y - minimumY), (dy, maximumY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let t = q / p
            if p < 0 {
                if t > high { return nil }
                low = max(low, t)
            } else {
                if t < low { return nil }
                high = min(high, t)
            }
        }
        let enter = low == 0 ? a : (x: a.x + low * dx, y: a.y + low * dy)
        let exit = high == 1 ? b : (x: a.x + high * dx, y: a.y + high * dy)
        return (enter, exit)
    }
}
