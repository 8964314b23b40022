// Fetches one query from a server on 127.0.0.1 (a test's misbehaving server) with a response-size
// limit, then prints how it ended, whether anything reached the cache, how long it took and the
// process's peak resident memory. The hostile-server tests run the client here, in a process of
// its own: a body the client failed to bound shows as memory (or a trap) here and not in the test
// runner, and a flood that keeps a process's HTTP stack busy (on Linux every URLSession in a
// process shares one work queue) does not delay the other tests' requests.
//
//     baton-hostile-client <port> <urlSession|asyncHTTPClient> <maxResponseBytes>
//
// Prints `outcome: <case> <limit or description>`, `description: <the error's description>`,
// `cached: yes|no`, `elapsed-ms: <n>`, `vmhwm-kb: <n>`, and `heartbeat-gap-ms: <n>`: the longest a
// task on Swift's concurrency threads waited for a 10 ms sleep to end while the response was read
// and other requests were started and cancelled beside it (on Linux, FoundationNetworking's
// waiting calls once held both threads while a flood kept its work queue busy: every task in the
// process stalled for ~40 s).
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
let client = BatonClient(url: URL(string: "http://127.0.0.1:\(port)/graphql")!, httpClient: httpClient, limits: limits)
let query = HeroNameQuery(episode: .some(.case(.jedi)))

/// Ticks every 10 ms on Swift's concurrency threads until cancelled; returns the longest gap.
let heartbeat = Task { () -> Duration in
    var longest = Duration.zero
    var last = ContinuousClock.now
    while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(10))
        let now = ContinuousClock.now
        longest = max(longest, now - last)
        last = now
    }
    return longest
}
// Requests started and cancelled beside the flood (to a port nothing listens on): on Linux each
// one's URLSession calls wait for the work queue the flood keeps busy.
let beside = BatonClient(url: URL(string: "http://127.0.0.1:1/graphql")!, httpClient: URLSessionHTTPClient())
let besideRequests = Task {
    for _ in 0..<6 {
        let request = Task { _ = try? await beside.fetch(query: HeroNameQuery(episode: .none), cachePolicy: .networkOnly) }
        try? await Task.sleep(for: .milliseconds(20))
        request.cancel()
        try? await Task.sleep(for: .milliseconds(50))
    }
}

let start = ContinuousClock.now
let outcome: String
var description = ""
do {
    let result = try await client.fetch(query: query, cachePolicy: .networkOnly)
    outcome = "success \(result.data?.hero?.name ?? "nil")"
} catch let error as BatonError {
    description = "\(error)"
    switch error {
    case .responseTooLarge(_, let limit): outcome = "responseTooLarge \(limit)"
    case .network(_, let underlying): outcome = "network \(underlying)"
    default: outcome = "\(error)"
    }
} catch {
    outcome = "\(error)"
}
let elapsed = ContinuousClock.now - start
heartbeat.cancel()
let heartbeatGap = await heartbeat.value
besideRequests.cancel()
let cached = (try? await client.fetch(query: query, cachePolicy: .returnCacheDataDontFetch)) != nil

/// Whole milliseconds of `duration`.
func milliseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
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
print("description: \(description.split(separator: "\n").joined(separator: " "))")
print("cached: \(cached ? "yes" : "no")")
print("elapsed-ms: \(milliseconds(elapsed))")
print("vmhwm-kb: \(peakResidentKilobytes())")
print("heartbeat-gap-ms: \(milliseconds(heartbeatGap))")
