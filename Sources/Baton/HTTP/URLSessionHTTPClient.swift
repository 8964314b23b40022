import Foundation
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPClient`` over `URLSession` (FoundationNetworking on Linux).
///
/// Bodies: in-memory data is sent as it is; a file is uploaded from disk; a streamed body (a
/// multipart upload) is first written chunk by chunk to a temporary file, which is then uploaded
/// and deleted, because URLSession on Linux cannot upload from a custom stream. Memory stays
/// bounded either way; the disk briefly holds a copy of the body.
///
/// Streamed responses (``stream(_:body:timeout:)``) go through a session delegate, since
/// `URLSession.bytes(for:)` does not exist on Linux.
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let defaultTimeout: Duration
    private let streaming: StreamingSession

    /// A client over an ephemeral session (no shared cookies or URL cache).
    public init(timeout: Duration = .seconds(60)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.init(session: URLSession(configuration: configuration), timeout: timeout)
    }

    /// A client over `session`; streamed responses use a second session with its configuration.
    public init(session: URLSession, timeout: Duration = .seconds(60)) {
        self.session = session
        defaultTimeout = timeout
        streaming = StreamingSession(configuration: session.configuration)
    }

    /// Sends the request with a completion-handler task (cancelled from another thread when the
    /// operation's task is) and returns the whole response.
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        var urlRequest = try makeURLRequest(request, timeout: timeout)
        let session = self.session
        let (data, response): (Data, URLResponse)
        switch body {
        case nil:
            (data, response) = try await Self.run { session.dataTask(with: urlRequest, completionHandler: $0) }
        case .data(let bytes)?:
            urlRequest.httpBody = bytes
            let request = urlRequest
            (data, response) = try await Self.run { session.dataTask(with: request, completionHandler: $0) }
        case .file(let url)?:
            let request = urlRequest
            (data, response) = try await Self.run { session.uploadTask(with: request, fromFile: url, completionHandler: $0) }
        case .stream?:
            let spooled = try await Self.spool(body!)
            defer { try? FileManager.default.removeItem(at: spooled) }
            let request = urlRequest
            (data, response) = try await Self.run { session.uploadTask(with: request, fromFile: spooled, completionHandler: $0) }
        }
        return (try Self.httpResponse(response), data)
    }

    /// Runs a task made with a completion handler, cancelling it when the caller's task is cancelled.
    ///
    /// Not `URLSession.data(for:)`: on Linux its cancellation handler calls into the session's
    /// queue while the Swift task's status is locked, and a response completing at that moment
    /// needs that lock from the session's queue, so a fetch cancelled just as its response came
    /// deadlocked (seen in the 10,000-iteration cancellation test). Here the cancel is handed to
    /// another thread.
    private static func run(
        _ makeTask: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
    ) async throws -> (Data, URLResponse) {
        let handle = CancellableTaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = makeTask { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                handle.set(task)
                task.resume()
            }
        } onCancel: {
            handle.cancel()
        }
    }

    /// Sends the request and yields the body's chunks as they arrive, through the session's delegate
    /// (`URLSession.bytes(for:)` does not exist on Linux).
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        var urlRequest = try makeURLRequest(request, timeout: timeout)
        var spooled: URL?
        let task: URLSessionTask
        switch body {
        case nil:
            task = streaming.session.dataTask(with: urlRequest)
        case .data(let bytes)?:
            urlRequest.httpBody = bytes
            task = streaming.session.dataTask(with: urlRequest)
        case .file(let url)?:
            task = streaming.session.uploadTask(with: urlRequest, fromFile: url)
        case .stream?:
            let file = try await Self.spool(body!)
            spooled = file
            task = streaming.session.uploadTask(with: urlRequest, fromFile: file)
        }
        let spooledFile = spooled
        let cleanUp: @Sendable () -> Void = { if let spooledFile { try? FileManager.default.removeItem(at: spooledFile) } }
        let (head, chunks) = try await streaming.delegate.start(task, onFinish: cleanUp)
        return (try Self.httpResponse(head), chunks)
    }

    private func makeURLRequest(_ request: HTTPRequest, timeout: Duration?) throws -> URLRequest {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw URLError(.badURL)
        }
        let limit = timeout ?? defaultTimeout
        urlRequest.timeoutInterval = Double(limit.components.seconds) + Double(limit.components.attoseconds) * 1e-18
        return urlRequest
    }

    private static func httpResponse(_ response: URLResponse) throws -> HTTPResponse {
        guard let httpResponse = (response as? HTTPURLResponse)?.httpResponse else {
            throw URLError(.badServerResponse)
        }
        return httpResponse
    }

    /// Writes a streamed body to a temporary file.
    private static func spool(_ body: HTTPRequestBody) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baton-upload-\(UUID().uuidString)")
        do {
            try await body.write(to: url)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return url
    }
}

/// The session for streamed responses and its delegate; invalidated when the client goes away.
final class StreamingSession: @unchecked Sendable {
    let delegate = StreamingSessionDelegate()
    private let configuration: URLSessionConfiguration
    private let lock = NSLock()
    private var created: URLSession?

    init(configuration: URLSessionConfiguration) {
        self.configuration = configuration
    }

    /// Made on first use, so clients that never stream open no second session.
    var session: URLSession {
        lock.withLock {
            if let created { return created }
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            created = session
            return session
        }
    }

    deinit { created?.finishTasksAndInvalidate() }
}

/// Routes each streaming task's events: the response head resumes the caller, each data chunk
/// goes to the body stream, completion ends it (with the error, if any).
final class StreamingSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct TaskState {
        var head: CheckedContinuation<URLResponse, any Error>?
        let body: AsyncThrowingStream<Data, any Error>.Continuation
        let onFinish: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var states: [Int: TaskState] = [:]

    func start(
        _ task: URLSessionTask, onFinish: @escaping @Sendable () -> Void
    ) async throws -> (URLResponse, AsyncThrowingStream<Data, any Error>) {
        let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let handle = CancellableTaskHandle()
        handle.set(task)
        continuation.onTermination = { @Sendable termination in
            if case .cancelled = termination { handle.cancel() }
        }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<URLResponse, any Error>) in
                lock.withLock {
                    states[task.taskIdentifier] = TaskState(head: head, body: continuation, onFinish: onFinish)
                }
                task.resume()
            }
        } onCancel: {
            handle.cancel()
        }
        return (head, chunks)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let head = lock.withLock { () -> CheckedContinuation<URLResponse, any Error>? in
            defer { states[dataTask.taskIdentifier]?.head = nil }
            return states[dataTask.taskIdentifier]?.head
        }
        head?.resume(returning: response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let body = lock.withLock { states[dataTask.taskIdentifier]?.body }
        body?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = lock.withLock({ states.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.onFinish()
        if let head = state.head {
            head.resume(throwing: error ?? URLError(.badServerResponse))
        }
        if let error {
            state.body.finish(throwing: error)
        } else {
            state.body.finish()
        }
    }
}

/// A URLSession task to cancel from a Swift task's cancellation handler: the cancel runs on
/// another thread, never inside the handler (see `URLSessionHTTPClient.run`), and a cancel that
/// comes before the task exists cancels it as soon as it is set.
final class CancellableTaskHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func set(_ task: URLSessionTask) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return cancelled
        }
        if cancelNow { DispatchQueue.global().async { task.cancel() } }
    }

    func cancel() {
        let task = lock.withLock { () -> URLSessionTask? in
            cancelled = true
            return self.task
        }
        if let task { DispatchQueue.global().async { task.cancel() } }
    }
}
