import Foundation

/// Why a SQLite cache file could not be used. Each names the file.
public enum SQLiteCacheError: Error, Sendable, CustomStringConvertible {
    /// The file could not be opened or created.
    case cannotOpen(path: String, message: String)
    /// The file is not a SQLite database, or is damaged.
    case corrupt(path: String, message: String)
    /// The file is a SQLite database, but not a Baton cache.
    case foreign(path: String)
    /// The file was written by a newer Baton with a schema this one does not know.
    case unsupportedVersion(path: String, version: Int)
    /// Another connection kept the file locked past the busy timeout (5 s): an older Baton,
    /// which holds its file's lock while open, or a foreign program. Stores of this Baton share
    /// a file and wait for each other's short transactions. The file is left as it is.
    case alreadyOpen(path: String)
    /// A write found the disk full; the store keeps working in memory.
    case diskFull(path: String, message: String)
    /// The file or its folder cannot be written; the store keeps working in memory.
    case readOnly(path: String, message: String)
    /// A statement failed.
    case statementFailed(path: String, message: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let message): return "\(path): cannot open the cache: \(message)"
        case .corrupt(let path, let message): return "\(path): the cache file is damaged or not a database: \(message)"
        case .foreign(let path): return "\(path): the file is a SQLite database but not a Baton cache"
        case .unsupportedVersion(let path, let version):
            return "\(path): the cache has schema version \(version), newer than this Baton knows (\(SQLiteNormalizedCache.schemaVersion))"
        case .alreadyOpen(let path): return "\(path): the cache file is locked by another program (an older Baton keeps its file locked while open)"
        case .diskFull(let path, let message): return "\(path): the disk is full: \(message)"
        case .readOnly(let path, let message): return "\(path): the cache cannot be written: \(message)"
        case .statementFailed(let path, let message): return "\(path): \(message)"
        }
    }
}
