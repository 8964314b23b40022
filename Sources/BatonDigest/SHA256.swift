/// SHA-256 (FIPS 180-4), all at once or chunk by chunk: the persisted-query hash of each
/// document (the generator), and the example server's hashes of persisted queries and uploaded
/// files.
///
/// Written here rather than taken from swift-crypto because SHA-256 is all Baton needs of a
/// cryptography library, and swift-crypto's BoringSSL (about 370 C files) was the costly part of
/// every build that included it. Measured with scripts/bench-plugin on a package that uses the
/// build plugin (issue 16; 2 cores shared with other builds): with swift-crypto, `swift run baton`
/// right after `swift build` took 257 s and the `swift build` after it 293 s; without it, 4.1 s
/// and 7.0 s; the command line's first build went from 705 s to 255 s. The example server and the
/// tests dropped it too (issue 27, CI time): each of CI's two full builds (the tests and
/// ThreadSanitizer's) compiled that C again. Tested against FIPS 180-4's examples and the padding
/// boundaries (SHA256Tests).
package struct SHA256: Sendable {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes given that do not yet fill a 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0
    private var schedule = [UInt32](repeating: 0, count: 64)

    /// A hash of nothing yet.
    package init() {
        pending.reserveCapacity(64)
    }

    /// The 32-byte digest of `data`.
    package static func hash(data: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: data)
        return hasher.finalize()
    }

    /// The digest of `text`'s UTF-8 bytes as 64 lowercase hexadecimal digits.
    package static func hexDigest(_ text: String) -> String {
        hex(hash(data: text.utf8))
    }

    /// `bytes` as lowercase hexadecimal digits, two a byte.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Adds `data` to what is hashed.
    package mutating func update(data: some Sequence<UInt8>) {
        let handled: Void? = data.withContiguousStorageIfAvailable { update(bufferPointer: UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let bytes = Array(data)
            bytes.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// Adds the bytes in `bytes` to what is hashed.
    package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<taken])
            offset = taken
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress($0, at: 0) }
            pending.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 64 {
            compress(bytes, at: offset)
            offset += 64
        }
        pending.append(contentsOf: bytes[offset...])
    }

    /// The 32-byte digest of everything added.
    package consuming func finalize() -> [UInt8] {
        // Padding: 0x80, zeros to 56 mod 64, then the length in bits, big-endian.
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let counted = length
        tail.withUnsafeBytes { update(bufferPointer: $0) }
        length = counted
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    /// Runs the compression function over the 64 bytes of `bytes` from `start`.
    ///
    /// Written with pointers, `while` loops and the rotations spelled out, because the tests and
    /// the example server run unoptimized builds, where each array subscript, range iterator and
    /// small function is a call: so written it hashes about 4 times as fast in a debug build
    /// (4 MB: 0.99 s before, 0.24 s after), and as fast as before with optimization.
    private mutating func compress(_ bytes: UnsafeRawBufferPointer, at start: Int) {
        let input = bytes.baseAddress! + start
        schedule.withUnsafeMutableBufferPointer { buffer in
            let w = buffer.baseAddress!
            var t = 0
            while t < 16 {
                let i = t &* 4
                w[t] = UInt32(input.load(fromByteOffset: i, as: UInt8.self)) << 24
                    | UInt32(input.load(fromByteOffset: i &+ 1, as: UInt8.self)) << 16
                    | UInt32(input.load(fromByteOffset: i &+ 2, as: UInt8.self)) << 8
                    | UInt32(input.load(fromByteOffset: i &+ 3, as: UInt8.self))
                t &+= 1
            }
            while t < 64 {
                let a = w[t &- 15], b = w[t &- 2]
                let s0 = (a >> 7 | a << 25) ^ (a >> 18 | a << 14) ^ (a >> 3)
                let s1 = (b >> 17 | b << 15) ^ (b >> 19 | b << 13) ^ (b >> 10)
                w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                t &+= 1
            }
            var a = state[0], b = state[1], c = state[2], d = state[3]
            var e = state[4], f = state[5], g = state[6], h = state[7]
            Self.roundConstants.withUnsafeBufferPointer { constants in
                let k = constants.baseAddress!
                var t = 0
                while t < 64 {
                    let sum1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
                    let choose = (e & f) ^ (~e & g)
                    let t1 = h &+ sum1 &+ choose &+ k[t] &+ w[t]
                    let sum0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = sum0 &+ majority
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                    t &+= 1
                }
            }
            state[0] = state[0] &+ a; state[1] = state[1] &+ b; state[2] = state[2] &+ c; state[3] = state[3] &+ d
            state[4] = state[4] &+ e; state[5] = state[5] &+ f; state[6] = state[6] &+ g; state[7] = state[7] &+ h
        }
    }
}
