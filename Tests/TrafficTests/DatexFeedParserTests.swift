import Foundation
import OpenLR
import RoadMap
import TestSupport
import Testing

@testable import Traffic

/// DATEX II situation records (Data/traffic/sample-datex2.xml, v2.3; sample-datex3.xml, v3) read
/// into the feed model and placed on the sample map like the JSON feed.
@Suite struct DatexFeedParserTests {
    /// 2026-11-25T12:01:00Z, a minute after the samples were published.
    static let now = ISO8601DateFormatter().date(from: "2026-11-25T12:01:00Z")!

    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: Repository.url("Data/traffic/\(name)"))
    }

    /// A v2.3 publication with `records` (situation records) published at `published`.
    static func publication(_ records: String, published: String = "2026-11-25T12:00:00Z") -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <d2LogicalModel xmlns="http://datex2.eu/schema/2/2_0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <payloadPublication xsi:type="SituationPublication" lang="en">
                <publicationTime>\(published)</publicationTime>
                <situation id="s">\(records)</situation>
              </payloadPublication>
            </d2LogicalModel>
            """.utf8)
    }

    static let line = """
        <groupOfLocations xsi:type="Linear"><linearExtension><linearByCoordinatesExtension>
          <linearCoordinatesStartPoint><pointCoordinates><latitude>60.170284</latitude><longitude>24.940091</longitude></pointCoordinates></linearCoordinatesStartPoint>
          <linearCoordinatesEndPoint><pointCoordinates><latitude>60.170584</latitude><longitude>24.945041</longitude></pointCoordinates></linearCoordinatesEndPoint>
        </linearByCoordinatesExtension></linearExtension></groupOfLocations>
        """

    @Test("v2.3: records become incidents with category, closure, delay and validity; the rest is skipped by reason")
    func version2() throws {
        let feed = try TrafficFeedParser.parse(try Self.sample("sample-datex2.xml"), now: Self.now)
        #expect(feed.trafficModelID == "datex2:2026-11-25T12:00:00Z")
        #expect(feed.validUntil.timeIntervalSince(feed.generatedAt) == DatexFeedParser.defaultLifetime)
        #expect(feed.flow.isEmpty)
        #expect(feed.incidents.map(\.id) == ["roadworks-1", "queue-7"])
        let works = feed.incidents[0], queue = feed.incidents[1]
        #expect(works.iconCategory == .roadWorks && works.roadClosed && works.delay == nil)
        #expect(works.startTime == ISO8601DateFormatter().date(from: "2026-11-25T08:00:00Z"))
        #expect(works.endTime == ISO8601DateFormatter().date(from: "2026-11-25T18:00:00Z"))
        guard case .openLR(let text) = works.location else { Issue.record("\(works.location)"); return }
        let reference = try OpenLRBinary.decode(base64: text)
        #expect(reference.points.count == 2 && reference.points[0].functionalRoadClass == 4)
        #expect(reference.points[0].formOfWay == .multipleCarriageway && reference.points[1].bearingSector == 20)
        #expect(queue.iconCategory == .jam && !queue.roadClosed && queue.delay == 240 && queue.endTime == nil)
        // TPEG writes `to` before `from`: the line still runs from `from` to `to`.
        #expect(
            queue.location
                == .coordinates([
                    GeoPoint(latitude: 60.169855, longitude: 24.938289),
                    GeoPoint(latitude: 60.169585, longitude: 24.936809),
                ]))
        #expect(
            feed.skipped.map(\.description) == [
                "situationRecord[2]: not supported: a point location (only linear locations are placed on links)",
                "situationRecord[3]: the incident has ended",
                "situationRecord[4]: not supported: no OpenLR or coordinates (ALERT-C and other table locations need their table)",
                "situationRecord[5]: the record is suspended (validityStatus)",
            ])
    }

    @Test("on the sample map the DATEX roadworks lie where the JSON feed's do, in v2.3 and v3")
    func placedLikeTheJSONFeed() throws {
        let map = try SampleMap.map()
        let json = TrafficLayer(
            feed: try TrafficFeedParser.parse(try Self.sample("sample-feed.json"), now: Self.now), network: map)
        let roadworks = try #require(json.incidents.first { $0.record.id == "roadworks-1" })
        for name in ["sample-datex2.xml", "sample-datex3.xml"] {
            let layer = TrafficLayer(
                feed: try TrafficFeedParser.parse(try Self.sample(name), now: Self.now), network: map)
            let works = try #require(layer.incidents.first { $0.record.id == "roadworks-1" }, "\(name)")
            #expect(works.line.links == roadworks.line.links, "\(name)")
            #expect(layer.incidents(at: Self.now).count == 2, "\(name): \(layer.skipped)")
            #expect(!layer.routeTraffic(at: Self.now, network: map).closed.isDisjoint(with: roadworks.line.links))
        }
    }

    @Test("v3: namespaced records, OpenLR as locationReference, a closure by management type")
    func version3() throws {
        let feed = try TrafficFeedParser.parse(try Self.sample("sample-datex3.xml"), now: Self.now)
        #expect(feed.incidents.map(\.id) == ["roadworks-1", "closure-2"] && feed.skipped.isEmpty)
        let closure = feed.incidents[1]
        #expect(closure.iconCategory == .roadClosed && closure.roadClosed && closure.delay == 600)
        #expect(
            closure.location
                == .coordinates([
                    GeoPoint(latitude: 60.170284, longitude: 24.940091),
                    GeoPoint(latitude: 60.170584, longitude: 24.945041),
                ]))
    }

    @Test("a bad document is refused whole with what is wrong and where")
    func refusedDocuments() throws {
        let sample = try Self.sample("sample-datex2.xml")
        #expect {
            try TrafficFeedParser.parse(sample.prefix(sample.count / 2), now: Self.now)
        } throws: { error in
            guard case .malformedXML(let why) = error as? TrafficFeedError else { return false }
            return why.hasPrefix("line ")
        }
        let measured = Data(
            #"<d2LogicalModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><payloadPublication xsi:type="MeasuredDataPublication"/></d2LogicalModel>"#
                .utf8)
        #expect(throws: TrafficFeedError.invalidField("payloadPublication (a DATEX II SituationPublication)")) {
            try TrafficFeedParser.parse(measured, now: Self.now)
        }
        #expect(throws: TrafficFeedError.invalidField("publicationTime")) {
            try TrafficFeedParser.parse(Self.publication("", published: "noon"), now: Self.now)
        }
        #expect(throws: TrafficFeedError.self) {
            try TrafficFeedParser.parse(Self.publication("", published: "2026-11-25T13:00:00Z"), now: Self.now)
        }
        let late = Self.now.addingTimeInterval(DatexFeedParser.defaultLifetime)
        #expect {
            try TrafficFeedParser.parse(sample, now: late)
        } throws: { error in
            guard case .expired = error as? TrafficFeedError else { return false }
            return true
        }
        // Entities are not expanded (no billion laughs, no external files).
        let entity = Data(
            """
            <?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <d2LogicalModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><payloadPublication xsi:type="SituationPublication"><publicationTime>&x;</publicationTime></payloadPublication></d2LogicalModel>
            """.utf8)
        #expect(throws: TrafficFeedError.self) { try TrafficFeedParser.parse(entity, now: Self.now) }
    }

    @Test("bytes that are not UTF-8 are refused with where they are (FoundationXML trapped on them in a name)")
    func notUTF8() throws {
        var bytes = [UInt8](Self.publication("<situationRecord xsi:type=\"Accident\" id=\"x\"/>"))
        let name = try #require(bytes.firstRange(of: Array("situationRecord".utf8)))
        bytes[name.lowerBound + 13] = 0xDC
        #expect(
            throws: TrafficFeedError.malformedXML(
                "line 5, column 37: byte 309 is not UTF-8 (DATEX II documents are UTF-8 text)")
        ) {
            try TrafficFeedParser.parse(Data(bytes), now: Self.now)
        }
    }

    @Test("a processing instruction without data is read, not a crash (it was in FoundationXML, found by Tools/fuzz)")
    func processingInstructionWithoutData() throws {
        // The fuzzer's input: refused as malformed (the document ends inside a name), not a crash.
        #expect {
            try TrafficFeedParser.parse(Data("<?x?><mc:m.ess".utf8), now: Self.now)
        } throws: { error in
            guard case .malformedXML(let why) = error as? TrafficFeedError else { return false }
            return why.hasPrefix("line ")
        }
        // In a valid publication, before the root and inside it, the instruction is harmless.
        let record = "<situationRecord xsi:type=\"Accident\" id=\"x\"/>"
        var text = String(decoding: Self.publication(record), as: UTF8.self)
        text = text.replacingOccurrences(of: "<publicationTime>", with: "<?pi?><publicationTime>")
        text = "<?first?>" + text.drop { $0 != "\n" }.dropFirst()
        let feed = try TrafficFeedParser.parse(Data(text.utf8), now: Self.now)
        let plain = try TrafficFeedParser.parse(Self.publication(record), now: Self.now)
        #expect(feed == plain)
        // The fuzzer's second input: an instruction begun inside a bad one's name.
        #expect(throws: TrafficFeedError.self) {
            try TrafficFeedParser.parse(Data("<?<?x?><mc:m.esxml".utf8), now: Self.now)
        }
    }

    @Test("bad records are skipped with their reason, the good ones kept")
    func skippedRecords() throws {
        func record(_ type: String, id: String = "r", body: String) -> String {
            "<situationRecord xsi:type=\"\(type)\" id=\"\(id)\">\(body)</situationRecord>"
        }
        func openLR(firstClass: String, offsets: String = "") -> String {
            func point(
                _ tag: String, _ latitude: String, _ longitude: String, _ frc: String, _ bearing: Int, path: Bool
            )
                -> String
            {
                "<\(tag)><openlrCoordinate><latitude>\(latitude)</latitude><longitude>\(longitude)</longitude></openlrCoordinate>"
                    + "<openlrLineAttributes><openlrFunctionalRoadClass>\(frc)</openlrFunctionalRoadClass>"
                    + "<openlrFormOfWay>multipleCarriageway</openlrFormOfWay><openlrBearing>\(bearing)</openlrBearing></openlrLineAttributes>"
                    + (path
                        ? "<openlrPathAttributes><openlrLowestFRCToNextLRPoint>FRC4</openlrLowestFRCToNextLRPoint><openlrDistanceToNextLRPoint>10</openlrDistanceToNextLRPoint></openlrPathAttributes>"
                        : "") + "</\(tag)>"
            }
            return "<groupOfLocations><linearExtension><openlrExtendedLinear><firstDirection>"
                + point("openlrLocationReferencePoint", "60.169748", "24.938246", firstClass, 51, path: true)
                + point("openlrLastLocationReferencePoint", "60.169798", "24.938396", "FRC4", 231, path: false)
                + offsets + "</firstDirection></openlrExtendedLinear></linearExtension></groupOfLocations>"
        }
        let records = [
            record("Accident", id: "good", body: Self.line),
            record("Accident", id: "", body: Self.line),
            record(
                "Accident", body: "<impact><delays><delayTimeValue>-5</delayTimeValue></delays></impact>" + Self.line),
            record("ReroutingManagement", body: Self.line),
            record("Accident", body: openLR(firstClass: "FRC9")),
            record(
                "Accident",
                body: openLR(
                    firstClass: "FRC4",
                    offsets: "<openlrOffsets><openlrPositiveOffset>50</openlrPositiveOffset></openlrOffsets>")),
            record("Accident", id: "openlr", body: openLR(firstClass: "FRC4")),
            record(
                "Accident",
                body:
                    "<validity><validityTimeSpecification><overallStartTime>2026-11-25T12:00:00Z</overallStartTime><overallEndTime>2026-11-25T11:00:00Z</overallEndTime></validityTimeSpecification></validity>"
                    + Self.line),
            record(
                "Accident",
                body:
                    "<validity><validityTimeSpecification><overallStartTime>soon</overallStartTime></validityTimeSpecification></validity>"
                    + Self.line),
            record("Accident", body: ""),
        ]
        let feed = try TrafficFeedParser.parse(Self.publication(records.joined()), now: Self.now)
        #expect(feed.incidents.map(\.id) == ["good", "openlr"])
        #expect(feed.incidents.first?.iconCategory == .accident)
        #expect(
            feed.skipped.map(\.reason) == [
                .missingField("situationRecord id"), .invalidValue(field: "delayTimeValue"),
                .unsupported("situation record type ReroutingManagement"),
                .invalidOpenLR("openlrLineAttributes missing or invalid"),
                .invalidOpenLR("openlrPositiveOffset 50 m is not within the first or last stretch"), .endsBeforeStart,
                .invalidValue(field: "overallStartTime"), .missingField("groupOfLocations"),
            ])
    }

    @Test("mutated and truncated publications never crash: refused whole, or read with records kept or skipped")
    func mutations() throws {
        let text = String(decoding: try Self.sample("sample-datex2.xml"), as: UTF8.self)
        let mutation = TextMutation(characters: "<>/=\"&; x0-:", maximumEdits: 6)
        var random = SplitMix64(seed: 13)
        var read = 0, refused = 0
        for round in 0..<300 {
            let mutated =
                round % 3 == 0
                ? String(text.prefix(Int.random(in: 0...text.count, using: &random)))
                : mutation.mutate(text, using: &random)
            do {
                let feed = try TrafficFeedParser.parse(Data(mutated.utf8), now: Self.now)
                #expect(feed.incidents.count + feed.skipped.count <= 6)
                read += 1
            } catch {
                refused += 1
            }
        }
        // Both outcomes occur. Most mutations break the XML, which is refused whole (XMLReader is
        // strict, as XML requires; 10 of these 300 are read).
        #expect(read >= 5 && refused >= 5, "read \(read), refused \(refused)")
    }
}
