import BatonAPI
import Foundation
import HTTPTypes
import Logging

/// What ``RequestChainNetworkTransport`` logs through swift-log, with secrets taken out: each
/// request as it leaves (method, endpoint, headers, variables), each response (status, size,
/// time), each failure and each retry, all at `debug`: the caller gets every failure as an error,
/// so a library logs it no louder (the Swift server ecosystem's logging guidance). Values of sensitive headers
/// and variables (`SensitiveData`) read `<redacted>`, and any text that is logged as it came
/// (an error's description, which may quote a URL) is scrubbed of those values.
struct RequestLog: Sendable {
    let logger: Logger
    let sensitiveData: SensitiveData

    func willSend(_ request: GraphQLRequest, _ httpRequest: HTTPRequest, attempt: Int? = nil) {
        guard logger.logLevel <= .debug else { return }
        let scrub = scrubber(for: request)
        var metadata: Logger.Metadata = [
            "operation": .string(request.operationName),
            "method": .string(httpRequest.method.rawValue),
            "url": .string(scrub(Self.endpoint(request.url))),
            "headers": .string(redacted(httpRequest.headerFields)),
        ]
        if !request.variables.isEmpty {
            metadata["variables"] = .string(scrub(JSONValue.object(sensitiveData.redactedForLogging(request.variables)).serializedString()))
        }
        if !request.files.isEmpty { metadata["files"] = .string("\(request.files.count)") }
        logger.debug("sending \(request.operationName)", metadata: metadata)
    }

    func didReceive(_ request: GraphQLRequest, _ response: HTTPResponse, bytes: Int?, since start: ContinuousClock.Instant) {
        guard logger.logLevel <= .debug else { return }
        let size = bytes.map { "\($0) bytes" } ?? "streamed"
        logger.debug(
            "received \(request.operationName): HTTP \(response.status.code), \(size) in \(ContinuousClock.now - start)",
            metadata: ["operation": .string(request.operationName), "headers": .string(redacted(response.headerFields))])
    }

    func didFail(_ request: GraphQLRequest, _ error: any Error, since start: ContinuousClock.Instant) {
        guard logger.logLevel <= .debug else { return }
        let scrub = scrubber(for: request)
        logger.debug(
            "\(request.operationName) failed after \(ContinuousClock.now - start): \(scrub(String(describing: error)))",
            metadata: ["operation": .string(request.operationName)])
    }

    func willRetry(_ request: GraphQLRequest, attempt: Int, delay: Duration, reason: String) {
        guard logger.logLevel <= .debug else { return }
        let scrub = scrubber(for: request)
        logger.debug(
            "retrying \(request.operationName) in \(delay) (attempt \(attempt)): \(scrub(reason))",
            metadata: ["operation": .string(request.operationName)])
    }

    /// Header fields as `name: value` lines joined by `; `, sensitive values redacted.
    func redacted(_ fields: HTTPFields) -> String {
        fields.map { field in
            let value = sensitiveData.isSensitiveHeader(field.name.canonicalName) ? SensitiveData.redactedMarker : field.value
            return "\(field.name.rawName): \(value)"
        }.joined(separator: "; ")
    }

    /// A function that replaces every secret of `request` in a text: the values of its sensitive
    /// headers and variables, as they are, JSON-escaped and percent-encoded.
    func scrubber(for request: GraphQLRequest) -> @Sendable (String) -> String {
        var secrets = sensitiveData.sensitiveValues(in: request.variables)
        for field in request.headerFields where sensitiveData.isSensitiveHeader(field.name.canonicalName) {
            secrets.append(field.value)
            // `Bearer abc`: the credential alone may be quoted too.
            if let credential = field.value.split(separator: " ", maxSplits: 1).dropFirst().first {
                secrets.append(String(credential))
            }
        }
        var forms = Set<String>()
        for secret in secrets where !secret.isEmpty {
            forms.insert(secret)
            let escaped = JSONValue.string(secret).serializedString().dropFirst().dropLast()
            forms.insert(String(escaped))
            for allowed in [CharacterSet.urlQueryAllowed, RequestChainNetworkTransport.unreservedCharacters] {
                if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) { forms.insert(encoded) }
                if let encoded = String(escaped).addingPercentEncoding(withAllowedCharacters: allowed) { forms.insert(encoded) }
            }
        }
        // Longest first, so a secret that contains another is replaced whole.
        let ordered = forms.sorted { $0.count > $1.count }
        return { text in
            ordered.reduce(text) { $0.replacingOccurrences(of: $1, with: SensitiveData.redactedMarker) }
        }
    }

    /// The endpoint without its query: a GET request's URL carries the variables, which are
    /// logged on their own, redacted.
    private static func endpoint(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }
}
