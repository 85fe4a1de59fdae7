import Foundation

/// Why the model-id answer could not be read.
public struct TrafficModelIDAnswerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The first bytes of the answer, for the log.
    public var excerpt: String

    public var description: String {
        "no traffic model id in the answer (expected {\"trafficModelId\": …}, TomTom's "
            + "{\"viewpResp\": {\"trafficState\": {\"@trafficModelId\": …}}} or the id as plain text): \(excerpt)"
    }
}

/// Reads the answer of a traffic-model-id service: our feed's `{"trafficModelId": "…"}`, TomTom's
/// viewport answer (`viewpResp.trafficState["@trafficModelId"]`), or the id alone as text.
public enum TrafficModelIDAnswer {
    /// The model id in `data`.
    public static func parse(_ data: Data) throws(TrafficModelIDAnswerError) -> String {
        if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            if let root = object as? [String: Any] {
                if let id = text(root["trafficModelId"]) { return id }
                if let viewport = root["viewpResp"] as? [String: Any],
                    let state = viewport["trafficState"] as? [String: Any], let id = text(state["@trafficModelId"])
                {
                    return id
                }
            } else if let id = text(object) {
                return id
            }
        } else {
            let plain = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !plain.isEmpty, plain.count <= 64,
                plain.unicodeScalars.allSatisfy({
                    CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
                })
            {
                return plain
            }
        }
        throw TrafficModelIDAnswerError(excerpt: String(decoding: data.prefix(80), as: UTF8.self))
    }

    private static func text(_ value: Any?) -> String? {
        if let string = value as? String, !string.isEmpty { return string }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }
}
