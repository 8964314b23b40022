import BatonAPI
import Foundation

/// When a server response wrote a record's fields, kept on the record itself under the reserved
/// key `__ages` (as relay-runtime keeps `__invalidated_at` and `__errors` beside the fields they
/// describe), so ages go wherever records go: memory, the persistent cache (any version of its
/// format), a restart. Its value is an object by storage key: the time each field was received,
/// in seconds since 1970, or `[received, expires]` when the response's `Cache-Control: max-age`
/// gave it an expiry of its own. GraphQL names never start with `__` but the introspection
/// fields, so no selection reads it as data.
public enum FieldAges {
    /// The reserved key of a record's field ages.
    public static let key = "__ages"

    /// When `storageKey` of `record` was received and when its response said it expires, as
    /// stored; `nil` when no server response dated it.
    public static func age(of storageKey: String, in record: Record) -> FieldAge? {
        guard let ages = record.fields[key]?.scalarValue?.objectValue else { return nil }
        return age(ages[storageKey])
    }

    static func age(_ value: JSONValue?) -> FieldAge? {
        switch value {
        case .double(let received)?: return FieldAge(receivedAt: received, expiresAt: nil)
        case .int(let received)?: return FieldAge(receivedAt: Double(received), expiresAt: nil)
        case .list(let parts)? where parts.count == 2:
            guard let received = parts[0].doubleValue, let expires = parts[1].doubleValue else { return nil }
            return FieldAge(receivedAt: received, expiresAt: expires)
        default: return nil
        }
    }

    /// `edits` layered over `stored` (another writer's copy of the record) as
    /// `RecordState.layered(_:over:)` does, with the field ages merged field by field: the
    /// edits' dates for the fields they date, the stored copy's for the others.
    public static func layered(_ edits: Record, over stored: Record) -> Record {
        guard case .present(var result)? = RecordState.layered(.present(edits), over: .present(stored)) else { return edits }
        if let mine = edits.fields[key]?.scalarValue?.objectValue, let theirs = stored.fields[key]?.scalarValue?.objectValue {
            var ages = theirs
            for (storageKey, age) in zip(mine.keys, mine.values) { ages[storageKey] = age }
            result[key] = .scalar(.object(ages))
        }
        return result
    }

    /// Dates every field the records in `changes` write, merged over the ages their records
    /// already have (`base`): fields this commit does not write keep theirs.
    static func stamp(_ changes: inout RecordSource, base: (DataID) -> RecordState?, receivedAt: Double, expiresAt: Double?) {
        let stamp: JSONValue = expiresAt.map { .list([.double(receivedAt), .double($0)]) } ?? .double(receivedAt)
        var dated: [Record] = []
        dated.reserveCapacity(changes.count)
        for id in changes.ids {
            guard case .present(var record)? = changes.state(of: id) else { continue }
            var ages = JSONObject()
            if case .present(let existing)? = base(id), let old = existing.fields[key]?.scalarValue?.objectValue { ages = old }
            for storageKey in record.fields.keys where storageKey != key { ages[storageKey] = stamp }
            record[key] = .scalar(.object(ages))
            dated.append(record)
        }
        for record in dated { changes.replace(record.id, with: .present(record)) }
    }
}

/// When a field was received from a server, and when its response said it expires (seconds
/// since 1970).
public struct FieldAge: Sendable, Hashable {
    /// When the field was received.
    public var receivedAt: Double
    /// When its response's `Cache-Control: max-age` makes it expire, if it had one.
    public var expiresAt: Double?

    /// An age as given.
    public init(receivedAt: Double, expiresAt: Double?) {
        self.receivedAt = receivedAt
        self.expiresAt = expiresAt
    }

    /// When the field goes stale with a max age of `maxAge` seconds (`nil`: none), the sooner
    /// of that and its response's expiry; `nil` when it never does.
    func staleAt(maxAge: Double?) -> Double? {
        switch (maxAge, expiresAt) {
        case (let age?, let expires?): return min(receivedAt + age, expires)
        case (let age?, nil): return receivedAt + age
        case (nil, let expires?): return expires
        case (nil, nil): return nil
        }
    }
}

/// What a server response says about the freshness of the data it brings: its
/// `Cache-Control: max-age`, if any. Given to the store with the response it publishes.
public struct ResponseAge: Sendable, Hashable {
    /// The response's max age (`Cache-Control: max-age`, `no-cache` as zero), if it gave one.
    public var maxAge: Duration?

    /// A response with `maxAge` (`nil`: its head says nothing of freshness).
    public init(maxAge: Duration? = nil) {
        self.maxAge = maxAge
    }
}

/// The date a commit gives the fields it writes, in seconds since 1970.
struct FieldDate {
    let receivedAt: Double
    let expiresAt: Double?
}
