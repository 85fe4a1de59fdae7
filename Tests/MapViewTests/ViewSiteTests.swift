import Foundation
import MapTiles
import Testing

@testable import MapView

/// The view's answers: every bad request a clear 4xx with the reason, never a crash.
struct ViewSiteTests {
    struct MapUnreadable: Error, CustomStringConvertible {
        var description: String { "the map file x.map is gone" }
    }

    static func frame(_ time: Double) -> ReplayTimeline.Frame {
        ReplayTimeline.Frame(time: time, longitude: 24.9, latitude: 60.1, document: Data("{\"t\":\(time)}".utf8))
    }

    func site(tilesFail: Bool = false) -> ViewSite {
        ViewSite(
            assets: ["index.html": Data("<html>".utf8), "view.js": Data("1".utf8)], style: Data("{}".utf8),
            timeline: ReplayTimeline(frames: [Self.frame(2), Self.frame(0), Self.frame(1)]),
            route: Data("{\"type\":\"FeatureCollection\",\"features\":[]}".utf8),
            tiles: { layer, address in
                if tilesFail { throw MapUnreadable() }
                return Array("\(layer) \(address)".utf8)
            })
    }

    @Test func servesThePageStyleAndTiles() {
        let site = site()
        #expect(site.respond(method: "GET", target: "/").status == 200)
        #expect(site.respond(method: "GET", target: "/").contentType == "text/html; charset=utf-8")
        #expect(site.respond(method: "GET", target: "/assets/view.js").contentType.hasPrefix("text/javascript"))
        #expect(site.respond(method: "GET", target: "/style.json").body == Data("{}".utf8))
        let tile = site.respond(method: "GET", target: "/tiles/roads/14/9326/4742.pbf")
        #expect(tile.status == 200 && tile.body == Data("roads 14/9326/4742".utf8))
        #expect(site.respond(method: "GET", target: "/tiles/14/9326/4742.pbf").body == Data("roads 14/9326/4742".utf8))
        let traffic = site.respond(method: "GET", target: "/traffic.geojson")
        #expect(traffic.status == 200 && traffic.contentType == "application/geo+json")
        #expect(String(decoding: traffic.body, as: UTF8.self).contains("FeatureCollection"))
    }

    @Test func theHorizonAtATimeIsTheLastFixAtOrBeforeIt() {
        let site = site()
        #expect(site.respond(method: "GET", target: "/horizon.json?t=1.5").body == Data("{\"t\":1.0}".utf8))
        #expect(site.respond(method: "GET", target: "/horizon.json?t=1").body == Data("{\"t\":1.0}".utf8))
        #expect(site.respond(method: "GET", target: "/horizon.json?t=-4").body == Data("{\"t\":0.0}".utf8))
        let after = site.respond(method: "GET", target: "/horizon.json?t=2.5")
        #expect(after.status == 404)
        #expect(String(decoding: after.body, as: UTF8.self).contains("the replay runs to 2.0 s"))
        let summary = site.respond(method: "GET", target: "/timeline.json")
        let object = try? JSONSerialization.jsonObject(with: summary.body) as? [String: Any]
        #expect(object?["times"] as? [Double] == [0, 1, 2])
    }

    @Test(arguments: [
        ("/tiles/14/9326.pbf", 400, "not a tile address"),
        ("/tiles/14/9326/4742", 400, "expected /tiles/LAYER/Z/X/Y.pbf"),
        ("/tiles/a/b/c.pbf", 400, "not a tile address"),
        ("/tiles/14/99999/1.pbf", 400, "x and y must be from 0 to 16383"),
        ("/tiles/40/0/0.pbf", 400, "zoom 40 is not served"),
        ("/tiles/buildings/14/9326/4742.pbf", 404, "no tile layer 'buildings': the layers are roads"),
        ("/horizon.json", 400, "needs the time"),
        ("/horizon.json?t=soon", 400, "t=soon is not a time"),
        ("/horizon.json?t=nan", 400, "is not a time"),
        ("/assets/../../etc/passwd", 404, "no asset"),
        ("/assets/nothing.js", 404, "no asset 'nothing.js'"),
        ("/admin", 404, "no page /admin"),
    ])
    func badRequestsGetTheReason(target: String, status: Int, reason: String) {
        let response = site().respond(method: "GET", target: target)
        #expect(response.status == status)
        #expect(response.contentType.hasPrefix("text/plain"))
        #expect(String(decoding: response.body, as: UTF8.self).contains(reason))
    }

    @Test func otherMethodsAreRefused() {
        let response = site().respond(method: "POST", target: "/style.json")
        #expect(response.status == 405)
        #expect(String(decoding: response.body, as: UTF8.self).contains("GET and HEAD"))
    }

    @Test func anUnreadableMapIsA503WithTheReason() {
        let response = site(tilesFail: true).respond(method: "GET", target: "/tiles/roads/14/9326/4742.pbf")
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self).contains("the map file x.map is gone"))
    }
}
