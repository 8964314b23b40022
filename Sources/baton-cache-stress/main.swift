// baton-cache-stress: the SQLite cache's test processes.
//
//   baton-cache-stress PATH [RECORDS-PER-PUBLISH]
//     Publishes to the cache in a loop until killed. The crash-safety test kills it with SIGKILL
//     at random points and checks that the cache opens and holds whole publishes only, the last
//     one it reported or the one after it.
//   baton-cache-stress share PATH WORKER STEPS SEED
//     One of two processes writing and reading one file at once (issue 29): each writes its own
//     fields of shared records (with a check field that must agree with them) and of the root,
//     and reads the other's. It fails (exit 1, "error" lines) when a read finds a torn record,
//     a value of the other that went back, or one of its own writes lost; at the end it prints
//     "final WORKER K=GENERATION …", what it last wrote to each shared record.
//   baton-cache-stress serve PATH
//     Answers commands on standard input, one a line: `put ID VALUE` (publish, wait until it is
//     in the file, answer "ok"), `get ID` (answer the value, or "missing"), `quit`.
import BatonAPI
import BatonSQLite
import BatonStore
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

func openStore(_ path: String) -> Store {
    do {
        return Store(cache: try SQLiteNormalizedCache(fileURL: URL(fileURLWithPath: path)))
    } catch {
        fail("\(error)")
    }
}

/// The shared records both workers write.
let sharedCount = 8

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: baton-cache-stress PATH [RECORDS-PER-PUBLISH] | share PATH WORKER STEPS SEED | serve PATH") }

switch arguments[1] {
case "share":
    guard arguments.count == 6, let worker = Int(arguments[3]), let steps = Int(arguments[4]), let seed = UInt64(arguments[5]) else {
        fail("usage: baton-cache-stress share PATH WORKER STEPS SEED")
    }
    share(store: openStore(arguments[2]), worker: worker, steps: steps, seed: seed)
case "serve":
    guard arguments.count == 3 else { fail("usage: baton-cache-stress serve PATH") }
    serve(store: openStore(arguments[2]))
default:
    crashLoop(path: arguments[1], perPublish: arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50)
}

func crashLoop(path: String, perPublish: Int) -> Never {
    let store = openStore(path)
    var generation: Int = {
        guard case .present(let record)? = store.recordState(of: DataID("stress:0")) else { return 0 }
        return record["generation"]?.scalarValue?.intValue ?? 0
    }()
    say("ready \(generation)")
    while true {
        generation += 1
        // Every record of a publish carries the same generation: a torn publish would mix them.
        var changes = RecordSource()
        for index in 0..<perPublish {
            changes.set(
                Record(
                    id: DataID("stress:\(index)"), typename: "Stress",
                    fields: ["generation": .scalar(.int(generation)), "payload": .scalar(.string(String(repeating: "x", count: 200)))]))
        }
        store.publish(changes)
        // The store writes behind: wait for this publish to reach the file before reporting it.
        store.waitUntilPersisted()
        if let error = store.takePersistenceErrors().first { fail("\(error)") }
        // Written when `publish` returns: the test checks the file holds this generation or the next.
        say("published \(generation)")
    }
}

func share(store: Store, worker: Int, steps: Int, seed: UInt64) -> Never {
    var random = SplitMix(seed: seed)
    let other = 1 - worker
    // What this worker last wrote to each shared record, and the other's newest value seen.
    var mine = [Int](repeating: 0, count: sharedCount)
    var seen = [Int](repeating: 0, count: sharedCount)
    var generation = 0
    var errors = 0
    func report(_ message: String) {
        errors += 1
        say("error worker \(worker): \(message)")
    }
    for step in 0..<steps {
        let key = Int(random.next() % UInt64(sharedCount))
        let id = DataID("shared:\(key)")
        switch random.next() % 10 {
        case 0..<4:
            generation += 1
            var changes = RecordSource()
            changes.set(
                Record(
                    id: id, typename: "Shared",
                    fields: ["w\(worker)": .scalar(.int(generation)), "w\(worker)_check": .scalar(.string("\(generation)-\(worker)-\(key)"))]))
            // The root too: both workers write fields of the one root record.
            changes.set(Record(id: .rootID, typename: "__Root", fields: ["worker\(worker)": .scalar(.int(generation))]))
            store.publish(changes)
            mine[key] = generation
        case 4:
            store.waitUntilPersisted()
        default:
            guard case .present(let record)? = store.recordState(of: id) else {
                if mine[key] != 0 || seen[key] != 0 { report("step \(step): \(id) is missing") }
                continue
            }
            let own = record["w\(worker)"]?.scalarValue?.intValue ?? 0
            if own != mine[key] { report("step \(step): \(id) holds my \(own), I wrote \(mine[key])") }
            let theirs = record["w\(other)"]?.scalarValue?.intValue ?? 0
            let check = record["w\(other)_check"]?.scalarValue?.stringValue
            if theirs != 0, check != "\(theirs)-\(other)-\(key)" {
                report("step \(step): \(id) is torn: \(theirs) with \(check ?? "nil")")
            }
            if theirs < seen[key] { report("step \(step): \(id) went back from \(seen[key]) to \(theirs)") }
            seen[key] = max(seen[key], theirs)
            if case .present(let root)? = store.recordState(of: .rootID),
                root["worker\(worker)"]?.scalarValue?.intValue != (generation == 0 ? nil : generation)
            {
                report("step \(step): the root lost my generation \(generation): \(String(describing: root["worker\(worker)"]))")
            }
        }
    }
    store.waitUntilPersisted()
    if let error = store.takePersistenceErrors().first { report("\(error)") }
    say("final \(worker) " + mine.enumerated().map { "\($0.offset)=\($0.element)" }.joined(separator: " ") + " root=\(generation)")
    exit(errors == 0 ? 0 : 1)
}

func serve(store: Store) -> Never {
    say("ready")
    while let line = readLine() {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        switch words.first {
        case "put" where words.count == 3:
            var changes = RecordSource()
            changes.set(Record(id: DataID(words[1]), typename: "Value", fields: ["value": .scalar(.string(words[2]))]))
            store.publish(changes)
            store.waitUntilPersisted()
            say("ok")
        case "get" where words.count == 2:
            if case .present(let record)? = store.recordState(of: DataID(words[1])), let value = record["value"]?.scalarValue?.stringValue {
                say(value)
            } else {
                say("missing")
            }
        case "quit":
            exit(0)
        default:
            say("error unknown command: \(line)")
        }
    }
    exit(0)
}

/// SplitMix64: every run of a seed takes the same steps.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
