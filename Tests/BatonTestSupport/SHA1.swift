/// SHA-1 (FIPS 180-4), for the one thing the tests' fault servers need it for: the
/// `Sec-WebSocket-Accept` of a WebSocket upgrade (RFC 6455, section 4.2.2). Written here so the
/// tests need no cryptography library (see `SHA256` in BatonDigest for what that cost the build);
/// checked against FIPS 180-4's examples and RFC 6455's sample handshake (SHA1Tests). Not for
/// anything that needs a secure hash.
public enum SHA1 {
    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var message = bytes
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            for t in 0..<16 {
                let i = blockStart + t * 4
                w[t] = UInt32(message[i]) << 24 | UInt32(message[i + 1]) << 16 | UInt32(message[i + 2]) << 8 | UInt32(message[i + 3])
            }
            for t in 16..<80 { w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4]
            for t in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[t]
                e = d; d = c; c = rotl(b, 30); b = a; a = temp
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d; h[4] = h[4] &+ e
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
}
