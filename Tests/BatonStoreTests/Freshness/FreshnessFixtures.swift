import BatonAPI
import BatonStore
import Foundation
import Synchronization

/// A wall clock the test moves by hand (the store's tests do not link BatonTesting's).
final class TestClock: FreshnessClock {
    private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(seconds: Double) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }

    func sleep(until date: Date) async throws {
        // The store never sleeps; watches (in the client) do, and their tests use BatonTesting's clock.
        while now < date { try await Task.sleep(for: .milliseconds(1)) }
    }
}

/// The queries of Apollo Kotlin's cache-control tests (`tests/cache-control`), as selections:
/// `user { name email admin }` in parts, and `company { id }`.
enum FreshnessQueries {
    static let typename = Selection.field("__typename", type: .nonNull(.scalar("String")))

    static func user(_ fields: [String]) -> OperationDescriptor {
        descriptor(
            "GetUser" + fields.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(),
            [
                .field(
                    "user", type: .object("User"),
                    selections: [typename] + fields.map { .field($0, type: .scalar($0 == "admin" ? "Boolean" : "String")) })
            ])
    }

    static let company = descriptor(
        "GetCompany", [.field("company", type: .object("Company"), selections: [typename, .field("id", type: .nonNull(.scalar("ID")))])])

    static func descriptor(_ name: String, _ selections: [Selection], directives: CacheDirectives? = nil) -> OperationDescriptor {
        OperationDescriptor(name: name, selections: selections, variables: [:], rootType: "Query", cacheDirectives: directives)
    }

    /// The same descriptor for a schema with `directives`.
    static func withDirectives(_ descriptor: OperationDescriptor, _ directives: CacheDirectives) -> OperationDescriptor {
        OperationDescriptor(
            name: descriptor.name, selections: descriptor.selections, variables: descriptor.variables, rootType: descriptor.rootType,
            cacheDirectives: directives)
    }

    static let userData: JSONObject = ["user": ["__typename": "User", "name": "John", "email": "john@doe.com", "admin": true]]
    static let companyData: JSONObject = ["company": ["__typename": "Company", "id": "42"]]
    static let allUserFields = user(["name", "email", "admin"])
}
