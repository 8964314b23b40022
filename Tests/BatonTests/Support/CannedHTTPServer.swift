import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A misbehaving HTTP server on 127.0.0.1 for fault tests: it reads one request per connection
/// and answers with exactly the bytes it was given (which may lie about their length), then
/// closes the connection.
final class CannedHTTPServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let response: [UInt8]
    private let queue = DispatchQueue(label: "CannedHTTPServer")
    private let lock = NSLock()
    private var stopped = false

    /// A server answering every request with `response` (status line, headers and body).
    init(response: String) throws {
        self.response = Array(response.utf8)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        queue.async { [self] in acceptLoop() }
    }

    /// An HTTP response with a body and a correct `Content-Length`.
    static func response(status: String, contentType: String, body: String) -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/graphql")! }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 || lock.withLock({ stopped }) {
                if connection >= 0 { close(connection) }
                // Only this loop closes the listener, so its descriptor cannot be reused by
                // another socket while the loop might still call `accept` on it.
                close(listener)
                return
            }
            readRequest(connection)
            response.withUnsafeBytes { buffer in
                var sent = 0
                while sent < buffer.count {
                    let count = send(connection, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                    if count <= 0 { break }
                    sent += count
                }
            }
            // Half-close, then drain what the client still sends, so it never sees a reset.
            shutdown(connection, Int32(SHUT_WR))
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &sink, sink.count, 0) > 0 {}
            close(connection)
        }
    }

    /// Reads the request head and as much body as `Content-Length` announces.
    private func readRequest(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received.append(contentsOf: buffer[0..<count])
            let text = String(decoding: received, as: UTF8.self)
            guard let headEnd = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<headEnd.lowerBound].lowercased()
            var expected = 0
            if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                expected = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            }
            if head.contains("transfer-encoding: chunked") {
                if text.hasSuffix("0\r\n\r\n") { return }
                continue
            }
            let bodyCount = received.count - text[..<headEnd.upperBound].utf8.count
            if bodyCount >= expected { return }
        }
    }

    func stop() {
        let wasStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accept loop, which closes it
    }

    deinit { stop() }
}

/// A loopback port with nothing listening on it.
func closedLoopbackPort() throws -> Int {
    let server = try CannedHTTPServer(response: "")
    let port = server.port
    server.stop()
    return port
}
