import Foundation

/// Why no free port could be found.
public struct FreePortError: Error, Hashable, Sendable {
    /// The `errno` of the failed socket call.
    public var errno: Int32
}

/// A TCP port on 127.0.0.1 that nobody listens on right now (the kernel's choice for port 0).
/// - Throws: ``FreePortError`` when no socket can be bound.
public func freePort() throws(FreePortError) -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw FreePortError(errno: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw FreePortError(errno: errno) }
    return UInt16(bigEndian: address.sin_port)
}
