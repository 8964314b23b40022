// Runs one operation against a misbehaving server and reports how it ended and the process's
// peak resident memory: the hostile-stream tests' client process (issue 30), so that what a
// server sends is measured in a process of its own. Not a product.
//
//     baton-hostile-streams <defer|multipart-subscription|sse-subscription|query> <url> [maxPartBytes] [urlSession|asyncHTTPClient]
//     baton-hostile-streams websocket-burst <ws url> <events>
//
// `websocket-burst` subscribes over graphql-transport-ws to a server that sends `events` events
// at once, taking them as a consumer that keeps up would (a few in its buffer, a yield after each):
// Baton's own reader tasks must not starve it into `consumerFellBehind` (issue 30, item 15). In a
// process of its own, so that what is measured is Baton's fairness, not the test suite's load.
//
// `maxUnreadBytes` is twice `maxPartBytes`. Prints `outcome: <result or error>`, `baseline: <VmHWM in kB once the client is made, before
// the operation>` and `peak: <VmHWM in kB at the end>`.
import Baton
import BatonAsyncHTTPClient
import BatonExampleAPI
import BatonWebSocket
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
    print("usage: baton-hostile-streams <defer|multipart-subscription|sse-subscription|query> <url> [maxPartBytes]")
    exit(2)
}
var limits = ResponseLimits(operationTimeout: .seconds(120))
if arguments.count >= 4, let part = Int(arguments[3]) {
    limits.maxPartBytes = part
    limits.maxUnreadBytes = 2 * part
}
let httpClient: any HTTPClient = arguments.count >= 5 && arguments[4] == "asyncHTTPClient" ? AsyncHTTPClientAdapter() : URLSessionHTTPClient()

/// The peak resident set (`VmHWM`, kB) from /proc/self/status; -1 where there is none.
func peakResidentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

// Everything the operation needs but its response: the client, its transport, URLSession.
_ = BatonClient(url: url, httpClient: httpClient, limits: limits)
let baseline = peakResidentKilobytes()

let outcome: String
do {
    switch arguments[1] {
    case "defer":
        let client = BatonClient(url: url, httpClient: httpClient, limits: limits)
        var parts = 0
        for try await _ in client.fetchResults(query: HeroDeferredQuery(episode: .none), cachePolicy: .networkOnly) { parts += 1 }
        outcome = "parts \(parts)"
    case "multipart-subscription", "sse-subscription":
        let client = BatonClient(
            url: url, httpClient: httpClient, limits: limits,
            subscriptionProtocol: arguments[1] == "sse-subscription" ? .serverSentEvents : .multipart)
        var events = 0
        for try await _ in client.subscribe(subscription: CountSubscription(to: 3)) { events += 1 }
        outcome = "events \(events)"
    case "websocket-burst":
        let transport = WebSocketNetworkTransport(
            url: url, configuration: WebSocketTransportConfiguration(acknowledgementTimeout: .seconds(5), upgradeTimeout: .seconds(10)))
        let client = BatonClient(networkTransport: transport)
        let expected = arguments.count >= 4 ? Int(arguments[3]) ?? 0 : 0
        var last = 0
        var inOrder = true
        for try await result in client.subscribe(subscription: CountSubscription(to: expected), bufferLimit: 4) {
            let count = result.data?.count ?? -1
            if count != last + 1 { inOrder = false }
            last = count
            await Task.yield()
        }
        outcome = "events \(last)" + (inOrder ? " in order" : " out of order")
    case "query":
        let client = BatonClient(url: url, httpClient: httpClient, limits: limits)
        let result = try await client.fetch(query: HeroNameQuery(episode: .none), cachePolicy: .networkOnly)
        outcome = "errors \(result.errors?.count ?? 0)"
    default:
        print("unknown mode \(arguments[1])")
        exit(2)
    }
} catch {
    outcome = "error \(error)"
}
print("outcome: \(outcome)")
print("baseline: \(baseline)")
print("peak: \(peakResidentKilobytes())")
