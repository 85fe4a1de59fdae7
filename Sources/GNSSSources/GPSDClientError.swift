#if canImport(Glibc)
    import Glibc
#endif
import GNSS

/// A problem reaching gpsd or a client configuration that cannot work; ``description`` says what
/// failed, where, and what to do.
public struct GPSDClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The host name does not resolve.
        case hostNotFound
        /// Nothing listens on the port (ECONNREFUSED): gpsd is not running.
        case connectionRefused
        /// Connecting or sending took longer than the timeout.
        case timedOut
        /// gpsd closed the connection or it broke (ECONNRESET, EPIPE, or end of stream).
        case connectionLost
        /// The configuration is unusable (empty host, port 0, non-positive timeout).
        case invalidConfiguration
        /// Any other errno; see ``errno``.
        case other
    }

    /// The classification.
    public var code: Code
    /// The errno, or 0 when the failure did not come from errno.
    public var errno: Int32
    /// The gpsd host.
    public var host: String
    /// The gpsd port.
    public var port: UInt16
    /// Extra facts for the message, if any.
    public var detail: String?

    /// Creates an error with an explicit code.
    public init(code: Code, errno: Int32, host: String, port: UInt16, detail: String? = nil) {
        self.code = code
        self.errno = errno
        self.host = host
        self.port = port
        self.detail = detail
    }

    /// Creates an error classified from `errno`.
    public init(errno: Int32, host: String, port: UInt16) {
        let code: Code
        switch errno {
        case ECONNREFUSED: code = .connectionRefused
        case ETIMEDOUT, EAGAIN, EINPROGRESS: code = .timedOut
        case ECONNRESET, EPIPE, ENOTCONN: code = .connectionLost
        default: code = .other
        }
        self.init(code: code, errno: errno, host: host, port: port)
    }

    /// A one-line message: what failed, where, and what to do.
    public var description: String {
        let at = "gpsd at \(host):\(port)"
        let extra = detail.map { " (\($0))" } ?? ""
        switch code {
        case .hostNotFound:
            return "\(at): the host name does not resolve\(extra); check [gnss] host in the configuration"
        case .connectionRefused:
            return "\(at): connection refused — is gpsd running? ('systemctl status gpsd'; "
                + "gpsd.socket listens on 127.0.0.1:2947)"
        case .timedOut:
            return "\(at): no answer before the timeout\(extra); check the host and any firewall"
        case .connectionLost:
            return "\(at): the connection was lost\(extra); reconnecting"
        case .invalidConfiguration:
            return "gpsd client configuration is invalid: \(detail ?? "?"); fix [gnss] in the configuration"
        case .other:
            return "\(at): \(String(cString: strerror(errno))) (errno \(errno))\(extra)"
        }
    }
}
