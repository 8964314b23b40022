// baton-bench: Baton's speed figures, each measured side by side with its floor in one run
// (these machines are shared and noisy, so ratios, not absolute times, are the figures).
// Run with `scripts/bench`, which builds in release.
import Baton
import BatonAPI
import BatonExampleAPI
import BatonExampleServer
import BatonStore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/github")
let responseData = try Data(contentsOf: fixtures.appendingPathComponent("IssuesAndCommentsForRepository.response.json"))

if let flag = CommandLine.arguments.firstIndex(of: "--profile") {
    try ProfileWorkload.run(arguments: Array(CommandLine.arguments[(flag + 1)...]), response: responseData)
    exit(0)
}

var figures: [Figure] = []
var notes: [String] = []

// Memory first, before anything else raises the process's peak.
let (memoryFigure, memoryNote) = try GitHubFigures.memory(response: responseData)
notes.append(memoryNote)

// JSON parse: Baton's parser vs Foundation's JSONSerialization on the 410 KB response.
figures.append(
    try compare("JSON parse (410 KB)", floorName: "JSONSerialization", target: 0.5) {
        _ = try JSONValue(parsing: responseData)
    } floor: {
        _ = try JSONSerialization.jsonObject(with: responseData)
    })

figures.append(contentsOf: try GitHubFigures.figures(response: responseData, notes: &notes))
figures.append(memoryFigure)
figures.append(contentsOf: StoreFigures.all())
figures.append(try await RequestOverhead.figure())
if let codegen = try CodegenFigure.figure(fixtures: fixtures) {
    figures.append(codegen)
} else {
    notes.append("codegen: no release `baton` beside baton-bench; run scripts/bench, which builds it")
}

let allPassed = printTable(figures, notes: notes)
exit(allPassed ? 0 : 1)
