import Foundation
import RoadMap

/// Draws a ``HorizonScene`` as an SVG document.
///
/// Coordinates are metres east (x) and south (y) of the origin given in the root element's
/// (`id="horizon"`) `data-origin` attribute (`latitude longitude`), in an equirectangular projection, so that a
/// reader can map every point back to the map. Elements carry ids and classes a style or a test
/// can find: `roads` (class `road fcN`), `trailing`, `side-paths` (class `side-path levelN`),
/// `main-path` (with `data-links`), `cameras`, `fix`, `matched`.
public struct HorizonSVG: Sendable {
    /// The picture's width in pixels (its height follows the scene's proportions).
    public var width: Double = 1000
    /// Colours of roads by functional class 1 … 6.
    public var roadColours = ["#e892a2", "#fcd6a4", "#f7fabf", "#ffffff", "#ffffff", "#f2f2f2"]
    /// Line widths of roads by functional class 1 … 6, metres.
    public var roadWidths = [14.0, 12, 10, 9, 7, 5]

    /// The default look.
    public init() {}

    /// The SVG text.
    public func document(_ scene: HorizonScene) -> String {
        let all = scene.roads.flatMap(\.geometry) + scene.mainPath + scene.trailing + [scene.fix]
        let origin = GeoPoint(
            latitude: ((all.map(\.latitude).min() ?? 0) + (all.map(\.latitude).max() ?? 0)) / 2,
            longitude: ((all.map(\.longitude).min() ?? 0) + (all.map(\.longitude).max() ?? 0)) / 2)
        let projection = LocalProjection(origin: origin)
        func plane(_ point: GeoPoint) -> (x: Double, y: Double) {
            let p = projection.project(point)
            return (p.x, -p.y)
        }
        let planar = all.map(plane)
        let minX = (planar.map(\.x).min() ?? 0) - 20, maxX = (planar.map(\.x).max() ?? 0) + 20
        let minY = (planar.map(\.y).min() ?? 0) - 20, maxY = (planar.map(\.y).max() ?? 0) + 20
        let height = width * (maxY - minY) / max(1, maxX - minX)
        func points(_ line: [GeoPoint]) -> String {
            line.map {
                let p = plane($0); return "\(Self.number(p.x)),\(Self.number(p.y))"
            }.joined(separator: " ")
        }
        var svg = """
            <svg id="horizon" xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
            viewBox="\(Self.number(minX)) \(Self.number(minY)) \(Self.number(maxX - minX)) \(Self.number(maxY - minY))" \
            data-origin="\(origin.latitude) \(origin.longitude)" data-time="\(Self.number(scene.time))" \
            data-state="\(scene.state)">
            <rect x="\(Self.number(minX))" y="\(Self.number(minY))" width="\(Self.number(maxX - minX))" \
            height="\(Self.number(maxY - minY))" fill="#e8e4dc"/>
            <g id="roads" fill="none" stroke-linecap="round" stroke-linejoin="round">

            """
        for road in scene.roads.sorted(by: { ($0.functionalClass, $0.id) > ($1.functionalClass, $1.id) }) {
            let index = Int(max(1, min(6, road.functionalClass))) - 1
            svg += """
                <polyline class="road fc\(index + 1)" data-link="\(road.id)" points="\(points(road.geometry))" \
                stroke="#b8b2a8" stroke-width="\(Self.number(roadWidths[index] + 2))"/>
                <polyline points="\(points(road.geometry))" stroke="\(roadColours[index])" \
                stroke-width="\(Self.number(roadWidths[index]))"/>

                """
        }
        svg += "</g>\n<g id=\"side-paths\" fill=\"none\" stroke-linecap=\"round\">\n"
        for side in scene.sidePaths.sorted(by: { ($0.level, $0.id) > ($1.level, $1.id) }) {
            let colour = side.level == 1 ? "#2e9e5b" : side.level == 2 ? "#8c5fc7" : "#c77f2e"
            svg += """
                <polyline class="side-path level\(side.level)" data-path="\(side.id)" \
                data-probability="\(String(format: "%.3f", side.probability))" points="\(points(side.geometry))" \
                stroke="\(colour)" stroke-width="5" stroke-opacity="0.85"/>

                """
        }
        svg += """
            </g>
            <polyline id="trailing" fill="none" points="\(points(scene.trailing))" stroke="#7a7a7a" stroke-width="6" \
            stroke-dasharray="8 6"/>
            <polyline id="main-path" fill="none" data-links="\(scene.mainPathLinks.map(\.description).joined(separator: " "))" \
            points="\(points(scene.mainPath))" stroke="#1f5fd1" stroke-width="7" stroke-linecap="round" \
            stroke-linejoin="round"/>
            <g id="cameras">

            """
        for camera in scene.cameras {
            let p = plane(camera.point)
            svg += """
                <rect class="camera" x="\(Self.number(p.x - 6))" y="\(Self.number(p.y - 6))" width="12" height="12" \
                fill="#d12f1f" stroke="#ffffff" stroke-width="2"/>

                """
        }
        let fix = plane(scene.fix)
        svg += """
            </g>
            <circle id="fix" cx="\(Self.number(fix.x))" cy="\(Self.number(fix.y))" r="7" fill="none" stroke="#d12f1f" \
            stroke-width="3"/>

            """
        if let matched = scene.matched.map(plane) {
            svg += """
                <circle id="matched" cx="\(Self.number(matched.x))" cy="\(Self.number(matched.y))" r="8" \
                fill="#1f5fd1" stroke="#ffffff" stroke-width="3"/>

                """
        }
        svg += """
            <text x="\(Self.number(minX + 10))" y="\(Self.number(minY + 30))" font-family="sans-serif" font-size="24" \
            fill="#222">t = \(Self.number(scene.time)) s · \(scene.state) · \(scene.sidePaths.count) side paths</text>
            </svg>

            """
        return svg
    }

    /// A coordinate with one decimal (10 cm), without a trailing `.0`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}
