#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable run of bytes that the writer fills through a pointer: records are bound to
/// SQLite statements straight from it.
final class ByteBuffer {
    private(set) var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 64 << 10) {
        self.capacity = capacity
        start = Self.allocate(capacity)
    }

    deinit { free(start) }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory for \(capacity) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Where the next byte goes.
    var end: UnsafeMutablePointer<UInt8> { start + count }

    /// Makes room for `extra` more bytes past `count`.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        // `realloc` moves large blocks by remapping their pages, not by copying them.
        let newCapacity = max(needed, capacity * 2)
        guard let memory = realloc(start, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes") }
        start = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    /// Marks the bytes up to `end` (written after ``reserve(_:)``) as part of the buffer.
    @inline(__always)
    func advance(to end: UnsafeMutablePointer<UInt8>) {
        count = end - start
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafePointer<UInt8>, count extra: Int) {
        reserve(extra)
        (start + count).update(from: bytes, count: extra)
        count += extra
    }

    func append(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            if let base = bytes.baseAddress { append(base, count: bytes.count) }
        }
    }

    /// Empties the buffer; keeps its memory unless it grew past `limit` bytes.
    func removeAll(keepingUpTo limit: Int) {
        count = 0
        if capacity > limit {
            free(start)
            capacity = 64 << 10
            start = Self.allocate(capacity)
        }
    }
}
