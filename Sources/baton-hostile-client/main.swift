// Fetches one query from a server on 127.0.0.1 (a test's misbehaving server) with a response-size
// limit, then prints how it ended and the process's peak resident memory: the hostile-server
// tests run the client here, in a process of its own, so that a body the client failed to bound
// shows as memory (or a trap) here and not in the test runner.
//
//     baton-hostile-client <port> <urlSession|asyncHTTPClient> <maxResponseBytes>
//
// Prints `outcome: <description>` and `vmhwm-kb: <n>`.
import Baton
import BatonAsyncHTTPClient
import BatonExampleAPI
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let port = Int(arguments[1]), let maxBytes = Int(arguments[3]) else {
    print("usage: baton-hostile-client <port> <urlSession|asyncHTTPClient> <maxResponseBytes>")
    exit(2)
}
let httpClient: any HTTPClient = arguments[2] == "asyncHTTPClient" ? AsyncHTTPClientAdapter() : URLSessionHTTPClient()
var limits = ResponseLimits()
limits.maxResponseBytes = maxBytes
limits.operationTimeout = .seconds(30)
let transport = RequestChainNetworkTransport(
    url: URL(string: "http://127.0.0.1:\(port)/graphql")!, httpClient: httpClient, limits: limits)

let outcome: String
do {
    let response = try await transport.send(operation: HeroNameQuery(episode: .some(.case(.jedi))))
    outcome = "success \(response.body.count) keys"
} catch let error as BatonError {
    if case .responseTooLarge(_, let limit) = error {
        outcome = "responseTooLarge \(limit)"
    } else {
        outcome = "\(error)"
    }
} catch {
    outcome = "\(error)"
}

/// The peak resident set (`VmHWM`, kB) from /proc/self/status; -1 where there is none.
func peakResidentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.dropFirst("VmHWM:".count).filter(\.isNumber)) ?? -1
    }
    return -1
}

print("outcome: \(outcome)")
print("vmhwm-kb: \(peakResidentKilobytes())")
