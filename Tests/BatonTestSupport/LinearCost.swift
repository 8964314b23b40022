import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Checks that work grows linearly with its input, by the CPU time of the calling thread (which
/// other tests and processes on a loaded machine do not add to, unlike wall-clock time).
public enum LinearCost {
    /// CPU time the calling thread has used so far (on Linux; elsewhere the wall clock).
    public static func threadCPUTime() -> Duration {
        #if canImport(Glibc)
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
        #else
            return .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds))
        #endif
    }

    /// The least CPU time of `runs` runs of `work` (the least is the one least disturbed).
    public static func leastCPUTime(runs: Int = 3, _ work: () throws -> Void) rethrows -> Duration {
        var least = Duration.seconds(Int64.max / 4)
        for _ in 0..<runs {
            let start = threadCPUTime()
            try work()
            least = min(least, threadCPUTime() - start)
        }
        return least
    }

    /// How many times as long `work(large)` takes as `work(small)` (least CPU times of a few
    /// runs each). Linear work gives about `large / small`; quadratic work its square.
    public static func growth(small: Int, large: Int, _ work: (Int) throws -> Void) rethrows -> Double {
        let smallTime = try leastCPUTime { try work(small) }
        let largeTime = try leastCPUTime { try work(large) }
        return seconds(largeTime) / max(seconds(smallTime), 1e-6)
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
