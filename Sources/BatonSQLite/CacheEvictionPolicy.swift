import Foundation

/// What a ``SQLiteNormalizedCache`` removes from its file, beside what the app removes: records
/// written longer ago than `maxAge`, then the least recently used records while the file holds
/// more than `maxRecords` records or `maxBytes` bytes of pages in use. Never what a retained
/// query or a watcher of the store reads. Applied by the store's writer, in the background,
/// when the cache opens and every `checkInterval` writes, in short transactions beside the
/// store's reads and writes; the store's memory is not affected (a record evicted from the file
/// stays in memory until memory lets it go). Reading times reach the file in batches (with the
/// next write, or alone after a thousand reads), never one write per read.
public struct CacheEvictionPolicy: Sendable, Hashable {
    /// The most bytes of pages in use the file may hold, or `nil` for no bound.
    public var maxBytes: Int?
    /// The most records the file may hold, or `nil` for no bound.
    public var maxRecords: Int?
    /// How long after its last write a record stays, or `nil` for ever.
    public var maxAge: Duration?
    /// How many writes go between two checks of the bounds (a check counts the records).
    public var checkInterval: Int

    /// A policy with these bounds (none by default), checked every `checkInterval` writes.
    public init(maxBytes: Int? = nil, maxRecords: Int? = nil, maxAge: Duration? = nil, checkInterval: Int = 64) {
        self.maxBytes = maxBytes
        self.maxRecords = maxRecords
        self.maxAge = maxAge
        self.checkInterval = max(1, checkInterval)
    }

    /// Nothing is evicted: the file keeps what the app wrote until it is cleared (the default,
    /// as Apollo iOS's SQLite cache).
    public static let none = CacheEvictionPolicy()

    var isActive: Bool { maxBytes != nil || maxRecords != nil || maxAge != nil }
}
