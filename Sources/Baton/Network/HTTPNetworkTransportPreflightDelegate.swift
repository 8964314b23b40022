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
    /// The last chance to change `request` (its URL and header fields are kept) before it goes out.
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

    /// Asks the delegate (when it still exists) about `request`, and takes its URL and header
    /// fields back from the edited `URLRequest`.
    func decide(_ request: inout GraphQLRequest) async throws -> PreflightDecision {
        guard let delegate else { return .send }
        let (url, method, shown) = (request.url, request.usesGET ? "GET" : "POST", self.shown)
        let fields = request.headerFields.map { ($0.name.rawName, $0.value) }
        let edited: (url: URL?, fields: [String: String])? = await MainActor.run {
            var urlRequest = URLRequest(url: url)
            urlRequest.httpMethod = method
            for (name, value) in fields { urlRequest.addValue(value, forHTTPHeaderField: name) }
            guard delegate.networkTransport(shown, shouldSend: urlRequest) else { return nil }
            delegate.networkTransport(shown, willSend: &urlRequest)
            return (urlRequest.url, urlRequest.allHTTPHeaderFields ?? [:])
        }
        guard let edited else { return .veto(reason: "the preflight delegate's networkTransport(_:shouldSend:) returned false") }
        if let url = edited.url { request.url = url }
        var headerFields = HTTPFields()
        for (name, value) in edited.fields.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) { headerFields.append(HTTPField(name: name, value: value)) }
        }
        request.headerFields = headerFields
        return .send
    }
}
