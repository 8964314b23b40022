// baton-cache-stress: publishes to a SQLite cache in a loop until killed. The crash-safety test
// kills it with SIGKILL at random points and checks that the cache opens and holds whole
// publishes only, the last one it reported or the one after it. Usage: baton-cache-stress PATH [RECORDS-PER-PUBLISH]
import BatonAPI
import BatonSQLite
import BatonStore
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: baton-cache-stress PATH [RECORDS-PER-PUBLISH]\n".utf8))
    exit(2)
}
let path = arguments[1]
let perPublish = arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50

let cache: SQLiteNormalizedCache
do {
    cache = try SQLiteNormalizedCache(fileURL: URL(fileURLWithPath: path))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
let store = Store(cache: cache)
var generation: Int = {
    guard case .present(let record)? = store.recordState(of: DataID("stress:0")) else { return 0 }
    return record["generation"]?.scalarValue?.intValue ?? 0
}()
FileHandle.standardOutput.write(Data("ready \(generation)\n".utf8))
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
    if let error = store.takePersistenceErrors().first {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
    // Written when `publish` returns: the test checks the file holds this generation or the next.
    FileHandle.standardOutput.write(Data("published \(generation)\n".utf8))
}
