import CSQLite
import Foundation

/// A thin wrapper over one SQLite connection: statements, bindings, rows. Not thread-safe on
/// its own; ``SQLiteNormalizedCache`` serializes access.
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?
    /// Prepared statements by their SQL, kept for the connection's life: preparing costs more
    /// than running a small statement.
    private var statements: [String: OpaquePointer] = [:]

    /// Opens `path`, creating it unless `readOnly` (then nothing is ever written to the file).
    init(path: String, readOnly: Bool = false) throws(SQLiteCacheError) {
        self.path = path
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close(db)
            throw .cannotOpen(path: path, message: message)
        }
        let registered = PendingRowsTable.register(on: db)
        guard registered == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(db))
            sqlite3_close(db)
            throw .cannotOpen(path: path, message: message)
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func error(_ code: Int32) -> SQLiteCacheError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch code & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .corrupt(path: path, message: message)
        case SQLITE_BUSY, SQLITE_LOCKED: return .alreadyOpen(path: path)
        case SQLITE_FULL: return .diskFull(path: path, message: message)
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: return .readOnly(path: path, message: message)
        default: return .statementFailed(path: path, message: message)
        }
    }

    /// Rows the last statement inserted, changed or deleted.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs SQL with no results (several statements allowed).
    func execute(_ sql: String) throws(SQLiteCacheError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// A value to bind to a statement parameter.
    enum Value {
        case text(String)
        case int(Int)
        case real(Double)
        case blob([UInt8])
        case null
    }

    /// The prepared statement for `sql`, prepared on first use.
    private func statement(_ sql: String) throws(SQLiteCacheError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw error(prepared) }
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back
    /// when it throws.
    func transaction(_ body: () throws(SQLiteCacheError) -> Void) throws(SQLiteCacheError) {
        try run("BEGIN IMMEDIATE")
        do throws(SQLiteCacheError) {
            try body()
            try run("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs the statement for `sql`, which returns no rows, with each parameter `index` bound by
    /// `bind(statement, index)` (from 1 to the statement's parameter count). The bound values
    /// must live until this returns: bind with `SQLITE_STATIC`.
    func run(_ sql: String, binding bind: (OpaquePointer, Int32) -> Int32) throws(SQLiteCacheError) {
        let statement = try statement(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let count = sqlite3_bind_parameter_count(statement)
        var index: Int32 = 1
        while index <= count {
            let code = bind(statement, index)
            guard code == SQLITE_OK else { throw error(code) }
            index += 1
        }
        let step = sqlite3_step(statement)
        guard step == SQLITE_DONE else { throw error(step) }
    }

    /// Runs one statement with bound parameters, calling `row` for each result row.
    func run(_ sql: String, _ parameters: [Value] = [], row: ((Row) throws(SQLiteCacheError) -> Void)? = nil) throws(SQLiteCacheError) {
        let statement = try statement(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            switch parameter {
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT)
            case .int(let int): sqlite3_bind_int64(statement, index, Int64(int))
            case .real(let real): sqlite3_bind_double(statement, index, real)
            case .blob(let bytes):
                bytes.withUnsafeBytes { buffer in
                    _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), SQLITE_TRANSIENT)
                }
            case .null: sqlite3_bind_null(statement, index)
            }
        }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw error(step) }
            try row?(Row(statement: statement))
        }
    }

    /// One result row.
    struct Row {
        let statement: OpaquePointer

        func text(_ column: Int32) -> String? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: pointer)
        }

        /// Whether the column's text is `text`, byte for byte.
        func textEquals(_ column: Int32, _ text: String) -> Bool {
            guard let pointer = sqlite3_column_text(statement, column) else { return false }
            let count = Int(sqlite3_column_bytes(statement, column))
            var text = text
            return text.withUTF8 { bytes in bytes.count == count && (count == 0 || memcmp(bytes.baseAddress!, pointer, count) == 0) }
        }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

        /// The column's bytes, without copying them, for the length of `body`.
        func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            return try body(UnsafeRawBufferPointer(start: pointer, count: count))
        }

        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }
}

/// SQLite's "copy the bound value now" destructor.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// SQLite's "the bound value outlives the statement's run" destructor: no copy.
let SQLITE_STATIC: sqlite3_destructor_type? = nil

extension SQLiteConnection {
    /// `PRAGMA data_version`: changes when another connection commits to the file (never for
    /// this connection's own commits).
    func dataVersion() throws(SQLiteCacheError) -> Int {
        var version = 0
        try run("PRAGMA data_version") { row in version = row.int(0) }
        return version
    }
}
