import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import TestSupport

/// The scripted loopback server of `feed_server.py`, started for one test and killed at its end.
final class FeedServer: @unchecked Sendable {
    let process = Process()
    /// The server's standard input: it exits when this closes (the test process ended).
    private let input = Pipe()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    /// One scripted answer (the fields of `feed_server.py`'s SPEC).
    struct Answer: Encodable {
        var status = 200
        var headers: [String: String] = [:]
        var body: String?
        var file: String?
        var delay: Double?
        var etagAware: Bool?
    }

    /// One request the server saw.
    struct Request: Decodable {
        var path: String
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        var status: Int
    }

    /// Starts a server that reads response files from `responses` (default: the recorded ones).
    init(responses: URL = Repository.url("Tests/TrafficFeedHTTPTests/Responses")) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Repository.url("Tests/TrafficFeedHTTPTests/feed_server.py").path, responses.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit { stop() }

    /// Kills the server (SIGKILL: a test process may have SIGTERM blocked, and children inherit that).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func url(_ path: String) -> URL { URL(string: base + path)! }

    /// Scripts the answers for `path`, in turn (the last repeats).
    func script(_ path: String, _ answers: Answer...) async throws {
        struct Script: Encodable {
            var path: String
            var responses: [Answer]
        }
        var request = URLRequest(url: url("/_script"))
        request.httpMethod = "POST"
        request.httpBody = try JSONEncoder().encode(Script(path: path, responses: answers))
        _ = try await URLSession.shared.data(for: request)
    }

    /// The requests served so far for `path`.
    func requests(_ path: String) async throws -> [Request] {
        let (data, _) = try await URLSession.shared.data(from: url("/_log"))
        return try JSONDecoder().decode([Request].self, from: data).filter { $0.path == path }
    }
}
