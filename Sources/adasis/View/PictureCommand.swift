import ArgumentParser
import Foundation
import Horizon
import HorizonPicture
import RoadMap

/// `adasis picture --map MAP TRACE --at S -o horizon.svg [--png horizon.png]`.
struct PictureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "picture",
        abstract: "Draw the horizon at one moment of a recorded drive as SVG (and PNG).",
        discussion: """
            Runs the drive through matching and the horizon engine as `adasis horizon --at` does and \
            draws the fix at (or first after) --at: the roads around by class, the main path ahead \
            (blue) and its trailing part (dashed grey), the side paths by level (green, purple, \
            orange), cameras (red squares), the fix (red ring) and the matched position (blue dot). \
            --png rasterises the picture with rsvg-convert (Debian librsvg2-bin).
            """)

    @OptionGroup var drive: DriveOptions

    @Option(help: "Seconds from the start of the drive.")
    var at: Double

    @Option(name: .shortAndLong, help: "The SVG file to write.")
    var output: String

    @Option(help: "Also write a PNG of the picture here (through rsvg-convert).")
    var png: String?

    @Option(help: "Width of the picture, pixels.")
    var width: Double = 1000

    func validate() throws {
        guard width >= 100, width <= 10_000 else { throw ValidationError("--width must be from 100 to 10000 pixels") }
    }

    func run() throws {
        do {
            var session = try drive.open()
            let engine = try session.makeEngine()
            var scene: HorizonScene?
            for (index, fix) in session.trace.fixes.enumerated() {
                if session.trace.startsAfterReset(index) { session.matcher.reset() }
                let result = try session.matcher.match(fix)
                _ = try engine.update(
                    result, candidates: (session.matcher as? OnlineMapMatcher)?.candidatePositions ?? [])
                try session.follow(result, engine: engine)
                guard fix.time + 1e-6 >= at else { continue }
                scene = try HorizonScene(
                    result: result, fix: GeoPoint(latitude: fix.latitude, longitude: fix.longitude), engine: engine,
                    network: session.map)
                break
            }
            guard let scene else {
                printToStandardError("adasis picture: the drive ends before \(at) s; choose an earlier --at")
                throw ExitCode.failure
            }
            var svg = HorizonSVG()
            svg.width = width
            try Data(svg.document(scene).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            if let png { try SVGRasteriser.rasterise(svg: output, png: png) }
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis picture: \(error)")
            throw ExitCode.failure
        }
    }
}

/// PNG from SVG through librsvg's `rsvg-convert`.
enum SVGRasteriser {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `png` from the SVG file `svg`; the PNG appears only when the rasteriser succeeded.
    static func rasterise(svg: String, png: String) throws {
        let candidates = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(
                description:
                    "--png needs rsvg-convert, which is not installed: install librsvg2-bin (Tools/install-dependencies)"
            )
        }
        let partial = png + ".partial"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--format", "png", "--output", partial, svg]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            unlink(partial)
            throw Failure(description: "rsvg-convert could not rasterise \(svg): \(message)")
        }
        guard rename(partial, png) == 0 else {
            unlink(partial)
            throw Failure(description: "cannot write \(png): \(String(cString: strerror(errno)))")
        }
    }
}
