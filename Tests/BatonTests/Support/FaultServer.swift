import BatonTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A misbehaving server on 127.0.0.1 for fault tests. Each connection runs `script` on a thread
/// of its own, which reads and writes raw bytes: it can answer with lies about lengths, stall,
/// close mid-body, reset, speak just enough WebSocket to close with any code, and the server can
/// be stopped (every connection cut) and started again on the same port.
final class FaultServer: @unchecked Sendable {
    typealias Script = @Sendable (FaultConnection) -> Void

    private let script: Script
    private let lock = NSLock()
    private var boundPort = 0
    private var listener: Int32 = -1
    private var acceptLoopDone: DispatchSemaphore?
    private var stopped = true
    private var openConnections: Set<Int32> = []
    private var recorded: [String] = []
    private var requestHeads: [String] = []

    /// A server on an ephemeral port (or `port`) running `script` for each connection.
    init(port: Int = 0, script: @escaping Script) throws {
        self.script = script
        boundPort = port
        guard port == 0 else {
            try startListening()
            return
        }
        // When the server restarts on its port, no outgoing connection of another test can be
        // holding it (a port the kernel handed out was, in a full run, taken by a client's
        // connection between a stop and a restart).
        for _ in 0..<100 {
            boundPort = portBelowEphemeralRange()
            if (try? startListening(retrying: false)) != nil { return }
        }
        boundPort = 0
        try startListening()
    }

    var port: Int { lock.withLock { boundPort } }
    var url: URL { URL(string: "http://127.0.0.1:\(port)/graphql")! }
    var webSocketURL: URL { URL(string: "ws://127.0.0.1:\(port)/graphql")! }

    /// What the scripts recorded, in order (`FaultConnection.record(_:)`).
    var events: [String] { lock.withLock { recorded } }
    /// The head of every request read, in order.
    var requests: [String] { lock.withLock { requestHeads } }
    /// Connections open now.
    var openConnectionCount: Int { lock.withLock { openConnections.count } }

    func record(_ event: String) {
        lock.withLock { recorded.append(event) }
    }

    func recordRequest(_ head: String) {
        lock.withLock { requestHeads.append(head) }
    }

    var isStopped: Bool { lock.withLock { stopped } }

    /// Stops listening and cuts every open connection.
    func stop() {
        let (listener, done, connections) = lock.withLock { () -> (Int32, DispatchSemaphore?, Set<Int32>) in
            guard !stopped else { return (-1, nil, []) }
            stopped = true
            return (self.listener, acceptLoopDone, openConnections)
        }
        guard listener >= 0 else { return }
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accept loop, which closes it
        done?.wait()
    }

    /// Stops, then listens again on the same port, as a restarted server does.
    func restart() throws {
        stop()
        try startListening()
    }

    private func startListening(retrying: Bool = true) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A port asked for by number may be briefly taken: a client retrying against it can,
        // on Linux, connect to itself (its source port chosen equal to the port it dials), which
        // holds the port until it gives up. Binding is retried for a few seconds.
        var bound = Int32(-1)
        for attempt in 0..<(port == 0 || !retrying ? 1 : 50) {
            if attempt > 0 { usleep(100_000) }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { break }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let done = DispatchSemaphore(value: 0)
        lock.withLock {
            boundPort = Int(UInt16(bigEndian: address.sin_port))
            self.listener = listener
            acceptLoopDone = done
            stopped = false
        }
        Thread { [self] in
            acceptLoop(listener)
            done.signal()
        }.start()
    }

    private func acceptLoop(_ listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            let admitted = connection >= 0 && lock.withLock { () -> Bool in
                guard !stopped else { return false }
                openConnections.insert(connection)
                return true
            }
            guard admitted else {
                if connection >= 0 { close(connection) }
                // Only this loop closes the listener, so its descriptor cannot be reused by
                // another socket while the loop might still call `accept` on it.
                close(listener)
                return
            }
            Thread { [self] in
                let faultConnection = FaultConnection(descriptor: connection, server: self)
                script(faultConnection)
                faultConnection.finish()
                _ = lock.withLock { openConnections.remove(connection) }
                close(connection)
            }.start()
        }
    }

    /// An HTTP response with a body and a correct `Content-Length`.
    static func response(status: String, contentType: String, body: String, headers: [String] = []) -> String {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n\(extra)Connection: close\r\n\r\n\(body)"
    }

    deinit { stop() }
}

/// The server of the older transport tests: it answers every request with the same bytes.
typealias CannedHTTPServer = FaultServer

extension FaultServer {
    /// A server answering every request with `response` (status line, headers and body, which
    /// may lie about their length), then closing the connection.
    convenience init(response: String) throws {
        try self.init { connection in
            guard connection.readRequest() != nil else { return }
            connection.write(response)
        }
    }
}

/// A loopback port with nothing listening on it, released again: for a test that starts its own
/// server on it later (another test's server may be given it meanwhile; prefer
/// ``closedLoopbackPort()``).
///
/// The port is drawn with ``portBelowEphemeralRange()``: no outgoing connection and no server
/// given an ephemeral port can take it meanwhile (another fault server draws from the same range,
/// rarely the same port).
func releasedLoopbackPort() throws -> Int {
    for _ in 0..<200 {
        let candidate = portBelowEphemeralRange()
        if let socket = boundLoopbackSocket(port: candidate) {
            close(socket)
            return candidate
        }
    }
    throw POSIXError(.EADDRINUSE)
}

/// A loopback port with nothing listening on it.
///
/// The port is held by a socket that is bound but never listens, kept open for the rest of the
/// process: a connection to it is refused, and no other test's server can be given the port
/// meanwhile (a port merely closed again was, in a full parallel run, handed to the example
/// server, which then answered the "refused" request).
func closedLoopbackPort() throws -> Int {
    guard let holder = boundLoopbackSocket(port: 0) else { throw POSIXError(.EADDRINUSE) }
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A port drawn at random from below Linux's ephemeral range (32768–60999), which the kernel
/// never gives an outgoing connection or a server asking for port 0.
func portBelowEphemeralRange() -> Int { Int.random(in: 20_000...32_000) }

/// A TCP socket bound to 127.0.0.1:`port` (0: any free port), not listening; nil if the port is taken.
private func boundLoopbackSocket(port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else {
        close(descriptor)
        return nil
    }
    return descriptor
}

/// A request as the fault server read it.
struct FaultRequest: Sendable {
    let head: String
    let body: [UInt8]

    func header(_ name: String) -> String? {
        let prefix = name.lowercased() + ":"
        for line in head.split(separator: "\r\n").dropFirst() where line.lowercased().hasPrefix(prefix) {
            return line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// One accepted connection, driven by a script on its own thread.
final class FaultConnection: @unchecked Sendable {
    private let descriptor: Int32
    private let server: FaultServer
    private var buffer: [UInt8] = []
    private var aborted = false

    init(descriptor: Int32, server: FaultServer) {
        self.descriptor = descriptor
        self.server = server
    }

    func record(_ event: String) { server.record(event) }

    // MARK: HTTP

    /// Reads a request head and as much body as `Content-Length` announces (or a chunked body).
    func readRequest() -> FaultRequest? {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let lowered = head.lowercased()
                var expected = 0
                if let line = lowered.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    expected = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
                if lowered.contains("transfer-encoding: chunked") {
                    guard let bodyEnd = find([48, 13, 10, 13, 10], from: end + 4) else {
                        guard fill() else { return nil }
                        continue
                    }
                    let body = Array(buffer[(end + 4)..<(bodyEnd + 5)])
                    buffer.removeFirst(bodyEnd + 5)
                    server.recordRequest(head)
                    return FaultRequest(head: head, body: body)
                }
                if buffer.count - (end + 4) >= expected {
                    let body = Array(buffer[(end + 4)..<(end + 4 + expected)])
                    buffer.removeFirst(end + 4 + expected)
                    server.recordRequest(head)
                    return FaultRequest(head: head, body: body)
                }
            }
            guard fill() else { return nil }
        }
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    /// Waits `seconds`, or less when the server stops.
    func pause(_ seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && !server.isStopped {
            Thread.sleep(forTimeInterval: min(0.02, max(0, deadline.timeIntervalSinceNow)))
        }
    }

    /// Waits until the client closes the connection; false when `seconds` passed first.
    func waitForClientClose(seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        var sink = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let count = recv(descriptor, &sink, sink.count, 0)
            // The server stopping cuts the connection too; that is not the client closing it.
            if server.isStopped { return false }
            if count == 0 { return true }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }
        }
        return false
    }

    /// Closes with a reset (no orderly end), as a crashed peer does.
    func abort() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
        aborted = true
    }

    /// After the script: half-close, then drain what the client still sends, so it never sees a reset.
    func finish() {
        guard !aborted else { return }
        shutdown(descriptor, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sink = [UInt8](repeating: 0, count: 4096)
        while recv(descriptor, &sink, sink.count, 0) > 0 {}
    }

    // MARK: WebSocket

    /// Answers an upgrade request with 101, echoing the first subprotocol asked for.
    func acceptWebSocket(_ request: FaultRequest) {
        let key = request.header("Sec-WebSocket-Key") ?? ""
        let digest = SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        let accept = Data(digest).base64EncodedString()
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n"
        if let protocols = request.header("Sec-WebSocket-Protocol"), let first = protocols.split(separator: ",").first {
            response += "Sec-WebSocket-Protocol: \(first.trimmingCharacters(in: .whitespaces))\r\n"
        }
        write(response + "\r\n")
    }

    /// The next text message (pings answered, other control frames skipped); `nil` when the
    /// client closed or the connection broke.
    func readMessage() -> String? {
        var message: [UInt8] = []
        while true {
            guard let (fin, opcode, payload) = readFrame() else { return nil }
            switch opcode {
            case 0x8:
                return nil
            case 0x9:
                sendFrame(opcode: 0xA, payload: payload)
            case 0xA:
                continue
            default:
                message += payload
                if fin { return String(decoding: message, as: UTF8.self) }
            }
        }
    }

    /// The next message as JSON, when it is a JSON object.
    func readJSONMessage() -> [String: Any]? {
        guard let text = readMessage() else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    func sendText(_ text: String) {
        sendFrame(opcode: 0x1, payload: Array(text.utf8))
    }

    /// A close frame with `code` (and no reason).
    func sendClose(code: UInt16) {
        sendFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
    }

    private func sendFrame(opcode: UInt8, payload: [UInt8]) {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        write(frame + payload)
    }

    private func readFrame() -> (fin: Bool, opcode: UInt8, payload: [UInt8])? {
        guard take(2) else { return nil }
        let fin = buffer[0] & 0x80 != 0
        let opcode = buffer[0] & 0x0F
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard take(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard take(10) else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        let maskLength = masked ? 4 : 0
        guard take(offset + maskLength + length) else { return nil }
        let mask = Array(buffer[offset..<(offset + maskLength)])
        var payload = Array(buffer[(offset + maskLength)..<(offset + maskLength + length)])
        if masked {
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        buffer.removeFirst(offset + maskLength + length)
        return (fin, opcode, payload)
    }

    // MARK: Buffering

    /// Reads until the buffer holds `count` bytes.
    private func take(_ count: Int) -> Bool {
        while buffer.count < count {
            guard fill() else { return false }
        }
        return true
    }

    /// Reads what is available (blocking); false at end of stream or on error.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer += chunk[0..<count]
                return true
            }
            if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) && !server.isStopped { continue }
            return false
        }
    }

    private func find(_ pattern: [UInt8], from start: Int = 0) -> Int? {
        guard buffer.count >= pattern.count + start else { return nil }
        var index = start
        while index <= buffer.count - pattern.count {
            if buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
