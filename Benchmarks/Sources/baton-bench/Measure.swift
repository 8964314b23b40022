import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One figure of the table: Baton's time, its floor's, measured alternately in one run.
struct Figure {
    let name: String
    let baton: Duration
    let floor: Duration
    let floorName: String
    /// The ratio Baton / floor must be at most this; `nil` for a figure measured for its own
    /// sake, with no target (its row shows "–" and always passes).
    let target: Double?
    /// For figures that are not times: what to print for Baton and the floor.
    var batonText: String? = nil
    var floorText: String? = nil
    /// The same ratio in CPU time of the measuring thread (medians), for single-threaded work:
    /// unlike wall time, it does not count the time other processes held the CPU.
    var cpuRatio: Double? = nil

    var ratio: Double { seconds(baton) / seconds(floor) }
    var passes: Bool { target.map { ratio <= $0 } ?? true }
}

/// Wall time and the calling thread's CPU time of one run of `body`.
func measure(_ body: () throws -> Void) rethrows -> (wall: Duration, cpu: Duration) {
    let clock = ContinuousClock()
    let cpuStart = threadCPUTime()
    let start = clock.now
    try body()
    let wall = clock.now - start
    return (wall, threadCPUTime() - cpuStart)
}

/// CPU time used by the calling thread so far.
func threadCPUTime() -> Duration {
    #if canImport(Glibc)
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    #else
        return .zero
    #endif
}

func medianOf(_ times: [Duration]) -> Duration { times.sorted()[times.count / 2] }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// The median of `runs` timings of `body`.
func median(runs: Int, _ body: () throws -> Void) rethrows -> Duration {
    var times: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<runs { times.append(try clock.measure(body)) }
    return times.sorted()[times.count / 2]
}

/// Times `baton` and `floor` alternately, `rounds` times each, and keeps the medians, so both
/// see the same machine load.
func compare(
    _ name: String, floorName: String, target: Double, rounds: Int = 7, warmup: Bool = true,
    baton: () throws -> Void, floor: () throws -> Void
) rethrows -> Figure {
    if warmup {
        try baton()
        try floor()
    }
    var batonTimes: [(wall: Duration, cpu: Duration)] = []
    var floorTimes: [(wall: Duration, cpu: Duration)] = []
    for _ in 0..<rounds {
        batonTimes.append(try measure(baton))
        floorTimes.append(try measure(floor))
    }
    return Figure(
        name: name, baton: medianOf(batonTimes.map(\.wall)), floor: medianOf(floorTimes.map(\.wall)), floorName: floorName,
        target: target, cpuRatio: seconds(medianOf(batonTimes.map(\.cpu))) / seconds(medianOf(floorTimes.map(\.cpu))))
}

/// The async form of ``compare(_:floorName:target:rounds:warmup:baton:floor:)``.
func compareAsync(
    _ name: String, floorName: String, target: Double, rounds: Int = 5,
    baton: () async throws -> Void, floor: () async throws -> Void
) async rethrows -> Figure {
    try await baton()
    try await floor()
    var batonTimes: [Duration] = []
    var floorTimes: [Duration] = []
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let start = clock.now
        try await baton()
        batonTimes.append(clock.now - start)
        let floorStart = clock.now
        try await floor()
        floorTimes.append(clock.now - floorStart)
    }
    return Figure(
        name: name, baton: batonTimes.sorted()[rounds / 2], floor: floorTimes.sorted()[rounds / 2], floorName: floorName,
        target: target)
}

func format(_ duration: Duration) -> String {
    let value = seconds(duration)
    if value >= 1 { return String(format: "%.2f s", value) }
    if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
    return String(format: "%.1f µs", value * 1e6)
}

/// Prints the figures as one table and returns whether all passed.
func printTable(_ figures: [Figure], notes: [String]) -> Bool {
    let header = ["figure", "Baton", "floor", "ratio", "target", "result", "CPU-time ratio"]
    var rows = [header]
    for figure in figures {
        rows.append([
            figure.name, figure.batonText ?? format(figure.baton),
            "\(figure.floorText ?? format(figure.floor)) (\(figure.floorName))",
            String(format: "%.2f×", figure.ratio), figure.target.map { String(format: "≤ %.2f×", $0) } ?? "–",
            figure.target == nil ? "–" : figure.passes ? "pass" : "FAIL",
            figure.cpuRatio.map { String(format: "%.2f×", $0) } ?? "–",
        ])
    }
    var widths = Array(repeating: 0, count: header.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    for (number, row) in rows.enumerated() {
        print(row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }.joined(separator: " | "))
        if number == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")) }
    }
    for note in notes { print(note) }
    return figures.allSatisfy(\.passes)
}
