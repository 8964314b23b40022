import Foundation
#if canImport(FoundationNetworking)
    // On Linux `URLRequest` lives here: `import Baton` is enough for the preflight delegate's
    // methods, as `import Apollo` is on Apple platforms.
    @_exported import FoundationNetworking
#endif

/// Apollo iOS's HTTP transport, by the name its tutorial uses: Baton's ``RequestChainNetworkTransport``.
public typealias HTTPNetworkTransport = RequestChainNetworkTransport

/// Apollo iOS's preflight delegate, as its "Working with Mutations" tutorial conforms an app's
/// `Network` class to it: `shouldSend` may stop a request, `willSend` edits it (an
/// `Authorization` header) just before it leaves. Pass the delegate to
/// `HTTPNetworkTransport(url:delegate:)`; the transport holds it weakly, as Apollo's does.
///
/// Both methods run on the main actor. Baton's own form is a closure, the `preflight:` of
/// `BatonClient(url:preflight:)` (a ``PreflightInterceptor``); this protocol is a thin layer over it.
@MainActor
public protocol HTTPNetworkTransportPreflightDelegate: AnyObject, Sendable {
    /// Whether `request` may go out; `false` fails the operation with ``BatonError/vetoed(operationName:reason:)``.
    func networkTransport(_ networkTransport: HTTPNetworkTransport, shouldSend request: URLRequest) -> Bool
    /// The last chance to change `request` before it goes out: its URL, header fields, method
    /// (`GET` or `POST`), timeout and JSON body (`variables`, `extensions`) are what is sent.
    func networkTransport(_ networkTransport: HTTPNetworkTransport, willSend request: inout URLRequest)
}

extension RequestChainNetworkTransport {
    /// A transport to `url` whose requests pass through `delegate` first, as Apollo iOS's
    /// `HTTPNetworkTransport(url:delegate:)`: `BatonClient(networkTransport: transport)`.
    public init(url: URL, delegate: any HTTPNetworkTransportPreflightDelegate) {
        let reference = PreflightDelegateReference(delegate, shown: RequestChainNetworkTransport(url: url))
        self.init(url: url, interceptors: [PreflightInterceptor { request in try await reference.decide(&request) }])
    }
}

/// Holds the delegate weakly and asks it on the main actor.
final class PreflightDelegateReference: Sendable {
    weak let delegate: (any HTTPNetworkTransportPreflightDelegate)?
    /// The transport the delegate's methods are given: one to the same URL, without the delegate.
    let shown: HTTPNetworkTransport

    init(_ delegate: any HTTPNetworkTransportPreflightDelegate, shown: HTTPNetworkTransport) {
        self.delegate = delegate
        self.shown = shown
    }

    /// What the delegate is shown of a request, and what it left there.
    struct Shown: Sendable {
        var url: URL?
        var method: String
        var fields: [String: String]
        var timeoutInterval: TimeInterval
        var body: Data?
    }

    /// The timeout a `URLRequest` shows when the request has none of its own (URLRequest's default).
    static let defaultTimeoutInterval: TimeInterval = 60

    /// Asks the delegate (when it still exists) about `request`, and takes back what it edited
    /// in the `URLRequest`: the URL, the header fields, the method (`GET` for a query, `POST`),
    /// the timeout, and the JSON body's `variables` and `extensions`. An edit Baton cannot send
    /// (another document or operation name, `GET` for a mutation or an upload, another method, a
    /// body that is not a JSON object, a body on an upload) fails the operation with
    /// ``BatonError/vetoed(operationName:reason:)`` saying which, never silently dropped.
    func decide(_ request: inout GraphQLRequest) async throws -> PreflightDecision {
        guard let delegate else { return .send }
        let shownTimeout = request.timeout?.seconds
            ?? Self.defaultTimeoutInterval
        let before = Shown(
            url: request.url, method: request.usesGET ? "GET" : "POST",
            fields: Dictionary(request.headerFields.map { ($0.name.rawName, $0.value) }, uniquingKeysWith: { $0 + ", " + $1 }),
            timeoutInterval: shownTimeout,
            body: request.usesGET || !request.files.isEmpty ? nil : request.bodyJSON.serializedData())
        let shown = self.shown
        let after: Shown? = await MainActor.run {
            var urlRequest = URLRequest(url: before.url ?? request.url)
            urlRequest.httpMethod = before.method
            urlRequest.timeoutInterval = before.timeoutInterval
            urlRequest.httpBody = before.body
            for (name, value) in before.fields { urlRequest.setValue(value, forHTTPHeaderField: name) }
            guard delegate.networkTransport(shown, shouldSend: urlRequest) else { return nil }
            delegate.networkTransport(shown, willSend: &urlRequest)
            return Shown(
                url: urlRequest.url, method: urlRequest.httpMethod ?? "GET", fields: urlRequest.allHTTPHeaderFields ?? [:],
                timeoutInterval: urlRequest.timeoutInterval, body: urlRequest.httpBody)
        }
        guard let after else { return .veto(reason: "the preflight delegate's networkTransport(_:shouldSend:) returned false") }
        if let refusal = Self.apply(after, shownAs: before, to: &request) {
            return .veto(reason: "the preflight delegate's networkTransport(_:willSend:) made an edit Baton cannot send: \(refusal)")
        }
        return .send
    }

    /// Applies the delegate's edits to `request`; returns why one cannot be sent, if one cannot.
    static func apply(_ after: Shown, shownAs before: Shown, to request: inout GraphQLRequest) -> String? {
        if let url = after.url { request.url = url }
        var headerFields = HTTPFields()
        for (name, value) in after.fields.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { headerFields.append(HTTPField(name: name, value: value)) }
        }
        request.headerFields = headerFields
        if after.timeoutInterval != before.timeoutInterval {
            guard after.timeoutInterval > 0, after.timeoutInterval.isFinite else {
                return "a timeout of \(after.timeoutInterval) s"
            }
            request.timeout = .milliseconds(Int64((after.timeoutInterval * 1000).rounded()))
        }
        switch after.method.uppercased() {
        case before.method:
            break
        case "GET":
            guard request.operationType == .query, request.files.isEmpty else {
                return "GET for \(request.files.isEmpty ? "a \(request.operationType)" : "an upload") (only a query can be sent as GET)"
            }
            request.usesGET = true
        case "POST":
            request.usesGET = false
        default:
            return "the method \(after.method) (GraphQL over HTTP uses GET and POST)"
        }
        guard after.body != before.body, let edited = after.body else { return nil }
        guard before.body != nil || request.files.isEmpty else { return "a body for an upload (its body is the multipart form)" }
        guard let body = try? JSONValue(parsing: edited).objectValue else { return "a body that is not a JSON object" }
        if let query = body["query"], query != .string(request.document) {
            return "another document in the body's query (send another operation instead)"
        }
        if let name = body["operationName"], name != .string(request.operationName) {
            return "another operationName in the body"
        }
        request.variables = body["variables"]?.objectValue ?? [:]
        request.extensions = body["extensions"]?.objectValue ?? [:]
        return nil
    }
}
