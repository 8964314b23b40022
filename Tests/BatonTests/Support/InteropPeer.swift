import BatonTestSupport
import Foundation

/// The interop peer (`Interop/server.py`, strawberry-graphql from PyPI) running on loopback for a
/// test: a GraphQL server nobody on Baton wrote.
struct InteropPeer: @unchecked Sendable {
    let process: Process
    let stdin: Pipe
    let port: Int

    var url: URL { URL(string: "http://127.0.0.1:\(port)/graphql")! }
    var webSocketURL: URL { URL(string: "ws://127.0.0.1:\(port)/graphql")! }

    enum Failure: Error, CustomStringConvertible {
        case noPython(String)
        case didNotStart(String)
        var description: String {
            switch self {
            case .noPython(let text): return "interop peer: no Python environment: \(text)"
            case .didNotStart(let text): return "interop peer did not start: \(text)"
            }
        }
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The peer's Python: `BATON_INTEROP_PYTHON` (set by `.ci/run`), else the venv that
    /// `Interop/setup.sh` makes (run here when missing; it needs PyPI once).
    static let python: Result<String, Failure> = {
        if let path = ProcessInfo.processInfo.environment["BATON_INTEROP_PYTHON"], !path.isEmpty {
            return .success(path)
        }
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/bin/bash")
        setup.arguments = [repositoryRoot.appendingPathComponent("Interop/setup.sh").path]
        let output = Pipe()
        setup.standardOutput = output
        setup.standardError = output
        do {
            try setup.run()
        } catch {
            return .failure(.noPython("\(error)"))
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        setup.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard setup.terminationStatus == 0, let last = text.split(separator: "\n").last else {
            return .failure(.noPython(text))
        }
        return .success(String(last))
    }()

    /// Starts a peer with extra `server.py` options and waits for its `LISTENING <port>` line.
    static func start(_ options: [String] = []) throws -> InteropPeer {
        let python = try Self.python.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [repositoryRoot.appendingPathComponent("Interop/server.py").path, "--port", "0", "--exit-with-stdin"] + options
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Read the first line (the port) byte by byte so nothing after it is consumed.
        var line = Data()
        let handle = stdout.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("LISTENING "), let port = Int(text.dropFirst("LISTENING ".count)) else {
            process.terminate()
            throw Failure.didNotStart("first line was \"\(text)\"")
        }
        return InteropPeer(process: process, stdin: stdin, port: port)
    }

    func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// Runs `body` with a fresh interop peer, stopped afterwards. Starting and stopping block on
/// the process (Python's start-up takes a second of CPU), so they run on a thread of their own,
/// not on Swift's cooperative pool that every other test's tasks share; and at most
/// ``PeerSlots/limit`` peers run at once: fifty started together at the suite's start took both
/// cores for half a minute, and every other test's few-second time-outs fired (issue 19).
func withInteropPeer<T>(_ options: [String] = [], _ body: (InteropPeer) async throws -> T) async throws -> T {
    await PeerSlots.shared.acquire()
    let peer: InteropPeer
    do {
        peer = try await onOwnThread { try InteropPeer.start(options) }
    } catch {
        await PeerSlots.shared.release()
        throw error
    }
    do {
        let result = try await body(peer)
        await onOwnThread { peer.stop() }
        await PeerSlots.shared.release()
        return result
    } catch {
        await onOwnThread { peer.stop() }
        await PeerSlots.shared.release()
        throw error
    }
}

/// How many interop peers may run at once; a test waits (without blocking a thread) for a slot.
enum PeerSlots {
    static let limit = 2
    static let shared = AsyncSlots(limit: limit)
}
