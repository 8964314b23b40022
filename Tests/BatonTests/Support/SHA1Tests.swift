import BatonTestSupport
import Foundation
import Testing

/// The fault servers' SHA-1 (WebSocket accept keys) against FIPS 180-4's examples and RFC 6455's
/// sample handshake.
@Suite("SHA-1")
struct SHA1Tests {
    @Test(arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func knownDigests(message: String, digest: String) {
        let hex = SHA1.hash(Array(message.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == digest)
    }

    /// RFC 6455, section 1.3: the sample key's accept value.
    @Test func theSampleHandshakesAcceptKey() {
        let digest = SHA1.hash(Array("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11".utf8))
        #expect(Data(digest).base64EncodedString() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
