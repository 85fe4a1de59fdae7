import Foundation

/// A stored response: what revalidation and freshness need, and the body.
public struct CachedEntry: Hashable, Sendable {
    /// The URL the response answers.
    public var url: String
    /// The validator to send as `If-None-Match`, when the server gave one.
    public var eTag: String?
    /// The validator to send as `If-Modified-Since`, when the server gave one.
    public var lastModified: String?
    /// When the response was received from the server or last revalidated.
    public var storedAt: Date
    /// Seconds after `storedAt` during which it may be used without asking the server.
    public var freshnessLifetime: TimeInterval
    /// The response body.
    public var body: Data

    /// Creates an entry.
    public init(
        url: String, eTag: String?, lastModified: String?, storedAt: Date, freshnessLifetime: TimeInterval, body: Data
    ) {
        self.url = url
        self.eTag = eTag
        self.lastModified = lastModified
        self.storedAt = storedAt
        self.freshnessLifetime = freshnessLifetime
        self.body = body
    }

    /// Whether it may be used at `now` without revalidation.
    public func isFresh(at now: Date) -> Bool { now < storedAt.addingTimeInterval(freshnessLifetime) }
}

/// Why a cache file was not taken as an entry (it is then deleted, never served).
enum CacheEntryFileError: Error, Hashable, Sendable {
    case badMagic, badMetadata, lengthMismatch(expected: Int, found: Int), checksumMismatch
}

/// The on-disk form of one entry: a magic line, a JSON metadata line (with the body's length and
/// FNV-1a 64 checksum), then the body. A file that is cut short or altered fails ``decode(_:)``.
enum CacheEntryFile {
    static let magic = Data("adasis-http-cache 1\n".utf8)

    private struct Metadata: Codable {
        var url: String
        var eTag: String?
        var lastModified: String?
        var storedAt: Double
        var freshnessLifetime: Double
        var bodyLength: Int
        var bodyChecksum: String
    }

    static func encode(_ entry: CachedEntry) -> Data {
        let metadata = Metadata(
            url: entry.url, eTag: entry.eTag, lastModified: entry.lastModified,
            storedAt: entry.storedAt.timeIntervalSince1970, freshnessLifetime: entry.freshnessLifetime,
            bodyLength: entry.body.count, bodyChecksum: checksum(entry.body))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding a struct of strings and numbers cannot fail.
        let json = (try? encoder.encode(metadata)) ?? Data()
        var data = magic
        data.append(json)
        data.append(UInt8(ascii: "\n"))
        data.append(entry.body)
        return data
    }

    static func decode(_ data: Data) throws(CacheEntryFileError) -> CachedEntry {
        guard data.starts(with: magic) else { throw .badMagic }
        let rest = data.dropFirst(magic.count)
        guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")),
            let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(rest[rest.startIndex..<newline]))
        else { throw .badMetadata }
        let body = Data(rest[rest.index(after: newline)...])
        guard body.count == metadata.bodyLength else {
            throw .lengthMismatch(expected: metadata.bodyLength, found: body.count)
        }
        guard checksum(body) == metadata.bodyChecksum else { throw .checksumMismatch }
        return CachedEntry(
            url: metadata.url, eTag: metadata.eTag, lastModified: metadata.lastModified,
            storedAt: Date(timeIntervalSince1970: metadata.storedAt), freshnessLifetime: metadata.freshnessLifetime,
            body: body)
    }

    /// FNV-1a 64 of `data`, 16 hex digits.
    static func checksum(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The entry's file name: the checksum of its URL (the URL inside is compared on lookup).
    static func fileName(for url: String) -> String { checksum(Data(url.utf8)) + ".entry" }
}
