import BatonStore
import Foundation
import HTTPTypes

/// What a response's `Cache-Control` head says to a client's cache (RFC 9111, section 5.2.2):
/// `no-store` (keep nothing), `max-age=N` (fresh for N seconds), `no-cache` (stale at once:
/// stored, but used again only after a fetch). Directives for shared caches (`s-maxage`,
/// `public`) do not concern a client; an unreadable directive is ignored, as RFC 9111 asks.
public struct CacheControl: Sendable, Hashable {
    /// The response may not be stored.
    public var noStore: Bool
    /// How long the response stays fresh (`no-cache` gives zero).
    public var maxAge: Duration?

    /// A head as given.
    public init(noStore: Bool = false, maxAge: Duration? = nil) {
        self.noStore = noStore
        self.maxAge = maxAge
    }

    /// The `Cache-Control` fields of `fields`, combined (several fields or comma-separated
    /// directives; when `max-age` comes twice, the smaller counts).
    public init(_ fields: HTTPFields) {
        self.init()
        for value in fields[values: .cacheControl] {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                switch name {
                case "no-store":
                    noStore = true
                case "no-cache":
                    maxAge = .zero
                case "max-age":
                    guard parts.count == 2 else { continue }
                    let text = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    guard let seconds = Int64(text), seconds >= 0 else { continue }
                    let age = Duration.seconds(seconds)
                    maxAge = Swift.min(maxAge ?? age, age)
                default:
                    continue
                }
            }
        }
    }

    /// What the store dates a response's fields with.
    var responseAge: ResponseAge { ResponseAge(maxAge: maxAge) }
}
