import Foundation
import Testing
import TestSupport

/// `adasis picture` end to end: an SVG (and a PNG) for a moment of a sample drive; bad requests
/// refused with a clear message and no file left behind.
@Suite("adasis picture", .serialized)
struct PictureCommandTests {
    static func temporary(_ name: String) -> String {
        ScratchDirectory.path("picture-\(name)")
    }

    @Test("the SVG of a moment shows the main path, side paths and the matched position; the PNG is a PNG")
    func picture() throws {
        let map = try GoldenFrameTests.mapPath.get()
        let svg = Self.temporary("a.svg"), png = Self.temporary("a.png")
        defer { unlink(svg); unlink(png) }
        var arguments = ["picture", "--map", map, "Data/drives/esplanadi.csv", "--at", "60", "-o", svg]
        let rasteriser = FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")
        if rasteriser { arguments += ["--png", png] }
        let result = try runAdasis(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("id=\"main-path\""))
        #expect(text.contains("id=\"matched\""))
        #expect(text.contains("class=\"side-path level1\""))
        #expect(text.contains("data-time=\"60\""))
        if rasteriser {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG signature")
            #expect(bytes.count > 10_000)
        }
    }

    @Test("a moment after the drive's end is refused, naming the time; no file is written")
    func afterTheEnd() throws {
        let map = try GoldenFrameTests.mapPath.get()
        let svg = Self.temporary("late.svg")
        defer { unlink(svg) }
        let result = try runAdasis(["picture", "--map", map, "Data/drives/esplanadi.csv", "--at", "100000", "-o", svg])
        #expect(result.status != 0)
        #expect(result.stderr.contains("the drive ends before 100000.0 s"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: svg))
    }
}
