import ArgumentParser
import BatonExampleServer
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `baton-example-server`: runs the example GraphQL server until SIGINT or SIGTERM.
@main
struct BatonExampleServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baton-example-server",
        abstract: "Runs Baton's example GraphQL server (Star Wars, posts, space trips, todos)."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system pick one.")
    var port = 4000

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535.")
        }
    }

    func run() async throws {
        let server = try await ExampleServer.start(host: host, port: port)
        FileHandle.standardOutput.write(Data("Baton example server on http://\(host):\(server.port)/graphql\n".utf8))
        await Self.terminationSignal()
        await server.stop()
    }

    /// Returns when the process gets SIGINT or SIGTERM.
    static func terminationSignal() async {
        let (signals, continuation) = AsyncStream<Void>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            sources.append(source)
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}
