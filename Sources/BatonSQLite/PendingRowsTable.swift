import CSQLite

/// Where one row of a write lies in the write's buffer: its ID, and its record (`nil` for a
/// deletion).
struct PendingRow {
    var id: Range<Int>
    var record: Range<Int>?
}

/// What one use of `baton_rows(?)` reads: the rows, and the buffer their ranges are in. Both
/// must live until the statement that reads them is reset.
struct PendingRows {
    let base: UnsafeRawPointer
    let rows: UnsafeBufferPointer<PendingRow>
}

/// A write's rows as SQLite reads them: the table-valued function `baton_rows(?)`, whose one
/// argument is a pointer to ``PendingRows`` (bound with `sqlite3_bind_pointer`), and whose
/// columns `id` and `record` are each row's bytes, read where the writer encoded them. It is an
/// eponymous virtual table, in the manner of SQLite's `carray` extension (which the system's
/// SQLite does not build in).
///
/// Written for the cache's upsert: one short statement takes a commit's rows, however many.
/// Multi-row `VALUES` lists (128, 16 and 1 rows, two parameters a row) were compiled by each new
/// connection and run once per chunk: 1.6 M of the 12.5 M instructions of a new connection's
/// first write of the GitHub response's records went to compiling them (callgrind, the bench's
/// `--profile cacheWrite`).
enum PendingRowsTable {
    /// The function's name in SQL.
    static let name = "baton_rows"
    /// The pointer type `sqlite3_bind_pointer` and `sqlite3_value_pointer` agree on: SQLite
    /// keeps the pointer, so it is a string in the binary's constant data.
    static var pointerType: UnsafePointer<CChar> {
        UnsafeRawPointer(("baton_rows" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Makes `baton_rows` known to the connection `db`.
    static func register(on db: OpaquePointer) -> Int32 {
        sqlite3_create_module_v2(db, name, module, nil, nil)
    }

    /// Column numbers, as the declaration orders them.
    private enum Column: Int32 {
        case id = 0, record, rows
    }

    /// A cursor: SQLite's part first (SQLite reads and writes it), then the rows and the position.
    private struct CursorState {
        var rows: UnsafePointer<PendingRows>?
        var index = 0
    }

    /// Where a cursor's state lies past SQLite's part, aligned for it.
    private static let stateOffset: Int = {
        let size = MemoryLayout<sqlite3_vtab_cursor>.size
        let alignment = MemoryLayout<CursorState>.alignment
        return (size + alignment - 1) / alignment * alignment
    }()

    private static func state(of cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>?) -> UnsafeMutablePointer<CursorState>? {
        guard let cursor else { return nil }
        return (UnsafeMutableRawPointer(cursor) + stateOffset).assumingMemoryBound(to: CursorState.self)
    }

    /// The module: never changed once made, and kept for the process's life (SQLite keeps a
    /// pointer to it in every connection it is registered on).
    nonisolated(unsafe) private static let module: UnsafeMutablePointer<sqlite3_module> = {
        var module = sqlite3_module()
        // No `xCreate`: eponymous only, `baton_rows` exists in every connection without a
        // `CREATE VIRTUAL TABLE`.
        module.xConnect = { db, _, _, _, table, _ in
            let declared = sqlite3_declare_vtab(db, "CREATE TABLE x(id, record, rows HIDDEN)")
            guard declared == SQLITE_OK, let table else { return declared }
            let made = UnsafeMutablePointer<sqlite3_vtab>.allocate(capacity: 1)
            made.initialize(to: sqlite3_vtab())
            table.pointee = made
            return SQLITE_OK
        }
        module.xDisconnect = { table in
            table?.deinitialize(count: 1)
            table?.deallocate()
            return SQLITE_OK
        }
        module.xBestIndex = { _, info in
            // The one plan: the rows' pointer is the first argument. Without it there is nothing
            // to read.
            guard let info, let constraints = info.pointee.aConstraint, let usage = info.pointee.aConstraintUsage else {
                return SQLITE_CONSTRAINT
            }
            for index in 0..<Int(info.pointee.nConstraint)
            where constraints[index].iColumn == Column.rows.rawValue
                && Int32(constraints[index].op) == SQLITE_INDEX_CONSTRAINT_EQ
            {
                guard constraints[index].usable != 0 else { return SQLITE_CONSTRAINT }
                usage[index].argvIndex = 1
                usage[index].omit = 1
                info.pointee.idxNum = 1
                info.pointee.estimatedCost = 1
                info.pointee.estimatedRows = 128
                return SQLITE_OK
            }
            return SQLITE_CONSTRAINT
        }
        module.xOpen = { _, cursor in
            guard let cursor else { return SQLITE_MISUSE }
            let memory = UnsafeMutableRawPointer.allocate(
                byteCount: stateOffset + MemoryLayout<CursorState>.size,
                alignment: max(MemoryLayout<sqlite3_vtab_cursor>.alignment, MemoryLayout<CursorState>.alignment))
            let made = memory.initializeMemory(as: sqlite3_vtab_cursor.self, repeating: sqlite3_vtab_cursor(), count: 1)
            (memory + stateOffset).initializeMemory(as: CursorState.self, repeating: CursorState(), count: 1)
            cursor.pointee = made
            return SQLITE_OK
        }
        module.xClose = { cursor in
            state(of: cursor)?.deinitialize(count: 1)
            cursor?.deinitialize(count: 1)
            UnsafeMutableRawPointer(cursor)?.deallocate()
            return SQLITE_OK
        }
        module.xFilter = { cursor, _, _, count, arguments in
            guard let state = state(of: cursor) else { return SQLITE_MISUSE }
            state.pointee.index = 0
            state.pointee.rows = nil
            if count >= 1, let argument = arguments?[0], let rows = sqlite3_value_pointer(argument, pointerType) {
                state.pointee.rows = UnsafePointer(rows.assumingMemoryBound(to: PendingRows.self))
            }
            return SQLITE_OK
        }
        module.xNext = { cursor in
            state(of: cursor)?.pointee.index += 1
            return SQLITE_OK
        }
        module.xEof = { cursor in
            guard let state = state(of: cursor), let rows = state.pointee.rows else { return 1 }
            return state.pointee.index < rows.pointee.rows.count ? 0 : 1
        }
        module.xColumn = { cursor, context, column in
            guard let state = state(of: cursor), let rows = state.pointee.rows, state.pointee.index < rows.pointee.rows.count else {
                sqlite3_result_null(context)
                return SQLITE_OK
            }
            let row = rows.pointee.rows[state.pointee.index]
            let base = rows.pointee.base
            switch Column(rawValue: column) {
            case .id:
                sqlite3_result_text(
                    context, (base + row.id.lowerBound).assumingMemoryBound(to: CChar.self), Int32(row.id.count), SQLITE_STATIC)
            case .record:
                if let record = row.record {
                    sqlite3_result_blob(context, base + record.lowerBound, Int32(record.count), SQLITE_STATIC)
                } else {
                    sqlite3_result_null(context)
                }
            case .rows, nil:
                sqlite3_result_null(context)
            }
            return SQLITE_OK
        }
        module.xRowid = { cursor, rowid in
            rowid?.pointee = sqlite3_int64(state(of: cursor)?.pointee.index ?? 0)
            return SQLITE_OK
        }
        let pointer = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        pointer.initialize(to: module)
        return pointer
    }()
}
