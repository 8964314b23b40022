import Dispatch

/// The main queue, as the `queue:` of a callback form: `client.fetch(query:queue: .main) { … }`.
///
/// Apollo iOS's callback forms take `queue: DispatchQueue = .main`, and an app's handlers use
/// the main thread's state (a view controller's methods). In Swift 6 that needs a handler
/// isolated to the main actor, which a handler for an arbitrary queue cannot be: so `.main`
/// names this value, whose callback forms take `@MainActor` handlers and run them on the main
/// actor (the main queue), while any other `DispatchQueue` takes a `@Sendable` handler run on
/// that queue.
public struct MainActorQueue: Sendable {
    /// The main queue, whose handlers run on the main actor.
    public static let main = MainActorQueue()

    private init() {}
}
