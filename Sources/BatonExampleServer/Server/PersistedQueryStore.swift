import BatonDigest
import Foundation

/// The server's persisted queries: SHA-256 hash (lowercase hex) → document.
///
/// - Automatic persisted queries (the default): a request may carry only
///   `extensions.persistedQuery.sha256Hash`; an unknown hash is answered `PersistedQueryNotFound`,
///   and a request carrying both the hash and the document registers it once the hash checks out.
/// - Persisted-only (``init(manifest:)``): the operations of an operation manifest (the codegen's
///   `apollo-persisted-query-manifest` JSON) and nothing else; documents sent by clients are refused.
public final class PersistedQueryStore: Sendable {
    /// Whether clients may send documents (and register new hashes).
    public let acceptsDocuments: Bool
    private let documents: Locked<[String: String]>

    /// An empty store for automatic persisted queries.
    public init() {
        acceptsDocuments = true
        documents = Locked([:])
    }

    /// A persisted-only store with the operations of a manifest:
    /// `{"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{"id", "body", …}]}`.
    /// - Throws: ``PersistedQueryStoreError`` when the manifest is not one, or an id is not the
    ///   SHA-256 of its body.
    public init(manifest: Data) throws {
        guard let json = try? JSONSerialization.jsonObject(with: manifest) as? [String: Any],
            let operations = json["operations"] as? [[String: Any]]
        else {
            throw PersistedQueryStoreError(description: "The manifest is not an operation manifest (no \"operations\" list).")
        }
        var documents: [String: String] = [:]
        for (index, operation) in operations.enumerated() {
            guard let id = operation["id"] as? String, let body = operation["body"] as? String else {
                throw PersistedQueryStoreError(description: "Operation \(index) of the manifest lacks an \"id\" or a \"body\".")
            }
            guard Self.sha256(body) == id.lowercased() else {
                throw PersistedQueryStoreError(description: "Operation \(index) of the manifest: \(id) is not the SHA-256 of its body.")
            }
            documents[id.lowercased()] = body
        }
        acceptsDocuments = false
        self.documents = Locked(documents)
    }

    /// The document persisted under `hash`.
    public func document(forHash hash: String) -> String? {
        documents.withLock { $0[hash.lowercased()] }
    }

    /// Registers `document` under `hash` after checking that it is its SHA-256.
    /// - Throws: when the hash does not match, or the store is persisted-only.
    public func register(hash: String, document: String) throws(PersistedQueryStoreError) {
        guard acceptsDocuments else {
            throw PersistedQueryStoreError(description: "Only persisted operations are accepted.")
        }
        guard Self.sha256(document) == hash.lowercased() else {
            throw PersistedQueryStoreError(description: "provided sha does not match query")
        }
        documents.withLock { $0[hash.lowercased()] = document }
    }

    /// How many documents the store holds.
    public var count: Int { documents.withLock { $0.count } }

    /// SHA-256 of a document's UTF-8 bytes, lowercase hex.
    public static func sha256(_ document: String) -> String {
        SHA256.hexDigest(document)
    }
}

/// A persisted query that cannot be stored or a manifest that cannot be read.
public struct PersistedQueryStoreError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
