import CSystemdBus
import RoadMap

/// Reads the arguments of a received D-Bus message in order (a borrowed `sd_bus_message`).
public struct BusMessageReader {
    let message: OpaquePointer

    /// The member (method or signal name).
    public var member: String { sd_bus_message_get_member(message).map { String(cString: $0) } ?? "" }

    /// The next argument, a `d`.
    public func readDouble() throws(BusError) -> Double {
        var value = 0.0
        try check(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "d")), &value), "read d")
        return value
    }

    /// The next argument, an `s`.
    public func readString() throws(BusError) -> String {
        var value: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &value), "read s")
        return value.map { String(cString: $0) } ?? ""
    }

    /// The next argument, an `a(dd)`: (latitude, longitude) pairs.
    public func readPoints() throws(BusError) -> [GeoPoint] {
        try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "(dd)"), "enter a(dd)")
        var points: [GeoPoint] = []
        while try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), "dd"), "enter (dd)") > 0 {
            let latitude = try readDouble(), longitude = try readDouble()
            points.append(GeoPoint(latitude: latitude, longitude: longitude))
            try check(sd_bus_message_exit_container(message), "exit (dd)")
        }
        try check(sd_bus_message_exit_container(message), "exit a(dd)")
        return points
    }

    /// The next argument, an `a(tb)`: (link id, forward) pairs.
    public func readDirectedLinks() throws(BusError) -> [DirectedLink] {
        try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "(tb)"), "enter a(tb)")
        var links: [DirectedLink] = []
        while try check(sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), "tb"), "enter (tb)") > 0 {
            var id: UInt64 = 0
            var forward: Int32 = 0
            try check(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "t")), &id), "read t")
            try check(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &forward), "read b")
            links.append(DirectedLink(LinkID(id), forward != 0 ? .forward : .backward))
            try check(sd_bus_message_exit_container(message), "exit (tb)")
        }
        try check(sd_bus_message_exit_container(message), "exit a(tb)")
        return links
    }
}

/// Appends arguments to a D-Bus message being built (an `sd_bus_message` it does not own).
public struct BusMessageWriter {
    let message: OpaquePointer

    private func basic(_ type: Character, _ pointer: UnsafeRawPointer) throws(BusError) {
        try check(sd_bus_message_append_basic(message, CChar(type.asciiValue!), pointer), "append \(type)")
    }

    /// Appends a `d`.
    public func append(_ value: Double) throws(BusError) {
        var value = value
        try basic("d", &value)
    }

    /// Appends a `u`.
    public func append(_ value: UInt32) throws(BusError) {
        var value = value
        try basic("u", &value)
    }

    /// Appends a `t`.
    public func append(_ value: UInt64) throws(BusError) {
        var value = value
        try basic("t", &value)
    }

    /// Appends a `b`.
    public func append(_ value: Bool) throws(BusError) {
        var value: Int32 = value ? 1 : 0
        try basic("b", &value)
    }

    /// Appends an `s`.
    public func append(_ value: String) throws(BusError) {
        let result = value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        try check(result, "append s")
    }

    /// Appends an array of `contents` (its element signature), each element written by `element`.
    public func appendArray<Element>(
        _ contents: String, _ elements: [Element], element: (BusMessageWriter, Element) throws(BusError) -> Void
    ) throws(BusError) {
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), contents), "open a\(contents)")
        for item in elements { try element(self, item) }
        try check(sd_bus_message_close_container(message), "close a\(contents)")
    }

    /// Appends a struct of `contents` (its signature without parentheses), written by `fields`.
    public func appendStruct(_ contents: String, fields: (BusMessageWriter) throws(BusError) -> Void)
        throws(BusError)
    {
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "r")), contents), "open (\(contents))")
        try fields(self)
        try check(sd_bus_message_close_container(message), "close (\(contents))")
    }

    /// Appends an `a(tb)`: (link id, forward) pairs.
    public func append(_ links: [DirectedLink]) throws(BusError) {
        try appendArray("(tb)", links) { (writer, link) throws(BusError) in
            try writer.appendStruct("tb") { (fields) throws(BusError) in
                try fields.append(link.link.rawValue)
                try fields.append(link.direction == .forward)
            }
        }
    }
}
