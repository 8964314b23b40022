import Foundation
import Testing

/// Runs a fuzz target's entry point in the normal test build over inputs mutated from its
/// corpus by a seeded generator (``CorpusMutator``), for a few seconds: what CI runs of each
/// `scripts/fuzz` target. **Not coverage-guided fuzzing** (`scripts/fuzz` is).
public enum FuzzSmoke {
    /// How long each target runs: `BATON_FUZZ_SMOKE_SECONDS`, default 2.
    public static let seconds: Double = ProcessInfo.processInfo.environment["BATON_FUZZ_SMOKE_SECONDS"].flatMap(Double.init) ?? 2

    /// The inputs of `target` in `Fuzz/Corpus/<target>/` and `Fuzz/Regressions/<target>/`.
    public static func corpus(_ target: String) -> [[UInt8]] {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz")
        var inputs: [[UInt8]] = []
        for folder in ["Corpus", "Regressions"] {
            let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names.sorted() where name != "README.md" {
                if let data = try? Data(contentsOf: directory.appendingPathComponent(name)) { inputs.append(Array(data)) }
            }
        }
        return inputs
    }

    /// Runs `check` on `target`'s corpus as it is, then on mutations of it until `seconds`
    /// (default ``seconds``) have passed; `check` returns a failure's description or nil, and
    /// each failure, or an input that costs more than `maxCPUPerInput` of the thread's CPU time
    /// (a hang, for inputs of at most `maxLength` bytes), is recorded with its input in base64
    /// (to save in `Fuzz/Regressions/`).
    /// Returns how many inputs ran.
    @discardableResult
    public static func run(
        _ target: String, seed: UInt64, seconds: Double = FuzzSmoke.seconds, maxLength: Int = 16 << 10,
        maxCPUPerInput: Duration = .seconds(2), _ check: ([UInt8]) -> String?
    ) -> Int {
        let corpus = corpus(target)
        #expect(!corpus.isEmpty, "no corpus for \(target)")
        var mutator = CorpusMutator(corpus: corpus, seed: seed, maxLength: maxLength)
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var executions = 0
        var failures = 0
        var pending = corpus[...]
        while ContinuousClock.now < end || !pending.isEmpty {
            let input = pending.popFirst() ?? mutator.next()
            executions += 1
            let start = LinearCost.threadCPUTime()
            var failure = check(input)
            let cost = LinearCost.threadCPUTime() - start
            if failure == nil, cost > maxCPUPerInput {
                // libFuzzer's run stops an input after 10 s as a hang; inputs here are small.
                failure = "one input took \(cost) of CPU (more than \(maxCPUPerInput))"
            }
            if let failure {
                failures += 1
                Issue.record("\(target): \(failure); input (base64): \(Data(input).base64EncodedString())")
                if failures >= 5 { break }
            }
        }
        print("fuzz smoke \(target): \(executions) inputs in \(seconds) s (seed \(seed))")
        return executions
    }
}
