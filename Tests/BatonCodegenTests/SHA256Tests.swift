import Testing

import BatonDigest
import BatonTestSupport

/// Baton's own SHA-256 (operation identifiers, the example server's hashes) against FIPS 180-4's examples and the
/// padding boundaries, where hand-written hashes go wrong.
@Suite("SHA-256", .ownThread)
struct SHA256Tests {
    @Test(arguments: [
        // FIPS 180-4 (and its example document, SHA256.pdf): one block, two blocks, empty.
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        // NIST's 896-bit message.
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        // Multi-byte UTF-8 is hashed as its bytes.
        ("héllo ✓", "5657cdef8a85a584e0e961e6f8247cf5d3f8ed21496ed6fdbcfd43a761e94245"),
    ])
    func knownDigests(message: String, digest: String) {
        #expect(SHA256.hexDigest(message) == digest)
    }

    @Test func oneMillionAs() {
        #expect(SHA256.hexDigest(String(repeating: "a", count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the 55/56/64-byte padding boundaries, against the same bytes hashed by
    /// `sha256sum` when writing this test.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
    ])
    func paddingBoundaries(count: Int, digest: String) {
        #expect(SHA256.hexDigest(String(repeating: "a", count: count)) == digest)
    }

    /// Chunk by chunk (as the example server hashes an upload) gives the digest of the whole,
    /// whatever the chunks' sizes: seeded random splits of 10,000 bytes, across block boundaries.
    @Test func chunkByChunkEqualsAllAtOnce() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hash(data: bytes)
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<50 {
            var hasher = SHA256()
            var offset = 0
            while offset < bytes.count {
                let size = min(Int(generator.next() % 150), bytes.count - offset)
                hasher.update(data: bytes[offset..<(offset + size)])
                offset += size
            }
            #expect(hasher.finalize() == whole)
        }
    }
}
