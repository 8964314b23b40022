import BatonAPI
import Foundation

/// Where the store keeps its records between runs. The store holds every record in memory and
/// writes each publish through to the cache; it reads the cache once, when it opens.
public protocol NormalizedCache: Sendable {
    /// Every stored record and deletion.
    func loadRecords() throws -> RecordSource
    /// Writes one publish: for each ID its new state (a record or a deletion), or `nil` to forget
    /// the ID (garbage collection). Must be atomic: after a crash the cache holds all of a publish
    /// or none of it.
    func write(_ changes: [DataID: RecordState?]) throws
    /// Removes every record.
    func clear() throws
}

/// The default cache: nothing survives the process.
public struct InMemoryNormalizedCache: NormalizedCache {
    public init() {}

    public func loadRecords() throws -> RecordSource { RecordSource() }
    public func write(_ changes: [DataID: RecordState?]) throws {}
    public func clear() throws {}
}
