import Baton
import BatonExampleAPI
import BatonTesting
import Foundation
import Synchronization

/// A client over `MockNetworkTransport` and a fresh in-memory store: what each scenario starts
/// from (relay-runtime tests its environment the same way, with a mock network).
struct Scenario {
    let transport = MockNetworkTransport()
    let client: BatonClient

    init() {
        client = BatonClient(networkTransport: transport)
    }

    /// R2-D2 with two friends, as `HeroRecordIDQuery`'s response.
    static func heroRecordIDResponse(name: String = "R2-D2", friendName: String = "Luke Skywalker") -> JSONObject {
        [
            "data": [
                "hero": [
                    "__typename": "Droid", "id": "2001", "name": .string(name),
                    "friends": [["__typename": "Human", "name": .string(friendName)], ["__typename": "Droid", "name": "C-3PO"]],
                ]
            ]
        ]
    }
}

/// Counts a store watcher's notifications.
final class NotificationCounter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func increment() { count.withLock { $0 += 1 } }
}
