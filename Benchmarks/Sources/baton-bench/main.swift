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

if let flag = CommandLine.arguments.firstIndex(of: "--reopen") {
    try PersistenceFigures.reopenChild(file: CommandLine.arguments[flag + 1])
    exit(0)
}
if let flag = CommandLine.arguments.firstIndex(of: "--profile") {
    try ProfileWorkload.run(arguments: Array(CommandLine.arguments[(flag + 1)...]), response: responseData)
    exit(0)
}

var figures: [Figure] = []
var notes: [String] = []

// `--only NAME[,NAME…]` runs some groups of figures: memory, parse, receive, commit, sqlite, persistence,
// growth, store, requests, codegen, trim (a 500 MB cache: run it alone, it takes minutes). The table of record is the one with all of them.
let only: Set<Substring>? = CommandLine.arguments.firstIndex(of: "--only").map {
    Set(CommandLine.arguments[$0 + 1].split(separator: ","))
}
func wants(_ group: Substring) -> Bool { only?.contains(group) ?? true }

// Memory first, before anything else raises the process's peak.
var memoryFigure: Figure?
if wants("memory") {
    let (figure, note) = try GitHubFigures.memory(response: responseData)
    memoryFigure = figure
    notes.append(note)
}

// JSON parse: Baton's parser vs Foundation's JSONSerialization on the 410 KB response.
if wants("parse") {
    figures.append(
        try compare("JSON parse (410 KB)", floorName: "JSONSerialization", target: 0.5) {
            _ = try JSONValue(parsing: responseData)
        } floor: {
            _ = try JSONSerialization.jsonObject(with: responseData)
        })
}
if wants("receive") { figures.append(contentsOf: try GitHubFigures.figures(response: responseData, notes: &notes)) }
if wants("commit") {
    let (commitFigures, commitNotes) = try await CommitFigures.figures(response: responseData)
    figures.append(contentsOf: commitFigures)
    notes.append(contentsOf: commitNotes)
}
if wants("sqlite") { figures.append(try GitHubFigures.sqlite(response: responseData, notes: &notes)) }
if only?.contains("trim") == true { figures.append(contentsOf: try TrimFigures.figures(notes: &notes)) }
if wants("persistence") { figures.append(contentsOf: try PersistenceFigures.figures(response: responseData, notes: &notes)) }
if wants("growth") { figures.append(contentsOf: try GitHubFigures.growth(response: responseData, notes: &notes)) }
if let memoryFigure { figures.append(memoryFigure) }
if wants("store") { figures.append(contentsOf: StoreFigures.all()) }
if wants("requests") { figures.append(try await RequestOverhead.figure()) }
if wants("codegen") {
    if let codegen = try CodegenFigure.figure(fixtures: fixtures) {
        figures.append(codegen)
    } else {
        notes.append("codegen: no release `baton` beside baton-bench; run scripts/bench, which builds it")
    }
}

let allPassed = printTable(figures, notes: notes)
exit(allPassed ? 0 : 1)
