import BatonStore
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
/// Every response is read through a session delegate (`URLSession.bytes(for:)` does not exist
/// on Linux), which is what lets the client keep its bounds against a server it does not control
/// (``HTTPRequestOptions``):
/// - **Size.** The body is counted as it arrives, after content decoding, and the task is
///   cancelled as soon as it passes `maxResponseBytes` (a `Content-Length` announcing more is
///   refused before any of the body is read). URLSession asks for gzip, br and zstd and inflates
///   them itself with no limit of its own; counting the inflated bytes bounds a compression bomb
///   as well as a plain large body, and keeps compression for honest servers.
/// - **Unread bytes.** A streamed response (`stream`) runs in a session of its own and counts
///   what its consumer has not taken (`ReceiveWindow`). FoundationNetworking cannot pause a
///   transfer and reads the socket as fast as it can, so once the consumer is
///   `options.maxUnreadBytes` behind, the response fails with
///   ``HTTPClientLimitError/consumerFellBehind(limit:)`` rather than fill memory. (The
///   AsyncHTTPClient adapter reads only as fast as its consumer takes.)
/// - **Redirects.** The session never follows a redirect itself (on Linux it would send the
///   original request's every header, `Authorization` included, to any origin, and drop a
///   `POST`'s body): the client follows it by ``HTTPRequestOptions/redirect(of:body:status:to:)``,
///   at most `maxRedirects` times, without `Authorization`, `Cookie`, `Proxy-Authorization` and
///   the sensitive headers when the origin changes; a request with a body is redirected only by
///   a 307 or 308 to its own origin, with its method and body, and otherwise fails with
///   ``HTTPClientLimitError/redirectRefused(status:location:reason:)``.
public struct URLSessionHTTPClient: HTTPClient {
    private let defaultTimeout: Duration
    private let streaming: StreamingSession

    /// A client over an ephemeral session (no shared cookies or URL cache).
    public init(timeout: Duration = .seconds(60)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.init(session: URLSession(configuration: configuration), timeout: timeout)
    }

    /// A client with `session`'s configuration: requests run in a session made with that
    /// configuration and Baton's delegate (which enforces the response-size limit and the
    /// redirect policy), not in `session` itself.
    public init(session: URLSession, timeout: Duration = .seconds(60)) {
        defaultTimeout = timeout
        streaming = StreamingSession(configuration: session.configuration)
    }

    /// Sends the request and returns the whole response, within the default options.
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, options: HTTPRequestOptions(timeout: timeout))
    }

    /// Sends the request and returns the whole response, reading at most
    /// `options.maxResponseBytes` of it and following redirects by `options`.
    public func send(_ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions) async throws -> (HTTPResponse, Data) {
        let delegate = streaming.delegate
        let session = streaming.session
        let limit = options.maxResponseBytes
        let (response, data) = try await following(request, body: body, options: options) {
            current, currentBody async throws -> (URLResponse, Data) in
            let (task, cleanUp) = try await makeTask(current, body: currentBody, timeout: options.timeout, in: session)
            defer { cleanUp() }
            return try await delegate.collect(task, limit: limit)
        }
        return (try Self.httpResponse(response), data)
    }

    /// Sends the request and yields the body's chunks as they arrive, with no size limit.
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        try await stream(request, body: body, options: HTTPRequestOptions(timeout: timeout, maxResponseBytes: nil))
    }

    /// Sends the request and yields the body's chunks as they arrive, failing the stream once
    /// they pass `options.maxResponseBytes`.
    public func stream(
        _ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions
    ) async throws -> (HTTPResponse, AsyncThrowingStream<Data, any Error>) {
        let limit = options.maxResponseBytes
        let configuration = streaming.configuration
        let (head, chunks) = try await following(request, body: body, options: options) { current, currentBody in
            // A session of its own, whose delegate queue delivers only this body's chunks, one at
            // a time and in order.
            let window = ReceiveWindow(limit: options.maxUnreadBytes)
            let delegate = StreamingSessionDelegate()
            let queue = StreamingSessionDelegate.makeDelegateQueue()
            let session = await URLSessionCalls.run {
                URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
            }
            let made: (URLSessionTask, @Sendable () -> Void)
            do {
                made = try await makeTask(current, body: currentBody, timeout: options.timeout, in: session)
            } catch {
                URLSessionCalls.async(for: session) { session.invalidateAndCancel() }
                throw error
            }
            let (task, cleanUp) = made
            return try await delegate.start(task, limit: limit, window: window) {
                cleanUp()
                URLSessionCalls.async(for: session) { session.finishTasksAndInvalidate() }
            }
        }
        return (try Self.httpResponse(head), chunks)
    }

    /// Runs `perform` for `request`, then, for each redirect the delegate declined to follow,
    /// for its target by ``HTTPRequestOptions/redirect(of:body:status:to:)``. `perform` is given
    /// the request and the body to send with it.
    private func following<T>(
        _ request: HTTPRequest, body: HTTPRequestBody?, options: HTTPRequestOptions,
        perform: (HTTPRequest, HTTPRequestBody?) async throws -> T
    ) async throws -> T {
        var current = request
        var currentBody = body
        var redirects = 0
        while true {
            do {
                return try await perform(current, currentBody)
            } catch let redirect as RedirectDeclined {
                redirects += 1
                guard redirects <= options.maxRedirects else {
                    throw HTTPClientLimitError.tooManyRedirects(limit: options.maxRedirects)
                }
                (current, currentBody) = try options.redirect(
                    of: current, body: currentBody, status: redirect.status, to: redirect.location)
            }
        }
    }

    /// A task for the request in `session`, and what removes its spooled body.
    private func makeTask(
        _ request: HTTPRequest, body: HTTPRequestBody?, timeout: Duration?, in session: URLSession
    ) async throws -> (URLSessionTask, @Sendable () -> Void) {
        var urlRequest = try makeURLRequest(request, timeout: timeout)
        switch body {
        case nil:
            let finalRequest = urlRequest
            return (await URLSessionCalls.run { session.dataTask(with: finalRequest) }, {})
        case .data(let bytes)?:
            urlRequest.httpBody = bytes
            let finalRequest = urlRequest
            return (await URLSessionCalls.run { session.dataTask(with: finalRequest) }, {})
        case .file(let url)?:
            let finalRequest = urlRequest
            return (await URLSessionCalls.run { session.uploadTask(with: finalRequest, fromFile: url) }, {})
        case .stream?:
            let file = try await Self.spool(body!)
            let finalRequest = urlRequest
            let task = await URLSessionCalls.run { session.uploadTask(with: finalRequest, fromFile: file) }
            return (task, { try? FileManager.default.removeItem(at: file) })
        }
    }

    private func makeURLRequest(_ request: HTTPRequest, timeout: Duration?) throws -> URLRequest {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw URLError(.badURL)
        }
        let limit = timeout ?? defaultTimeout
        urlRequest.timeoutInterval = limit.seconds
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

/// A redirect the session's delegate declined to follow, for the client to decide on.
struct RedirectDeclined: Error {
    let status: Int
    let location: URL
}

/// Where Baton calls URLSession's methods that wait: on Linux, FoundationNetworking's
/// `dataTask(with:)`, `uploadTask`, `resume()`, `cancel()` and the invalidations each wait
/// (`DispatchQueue.sync`) for the one work queue every session in the process shares, which a
/// fast or endless response keeps busy for seconds. Called from a Swift task, such a wait holds
/// one of the few threads Swift's concurrency runs every task on (as many as the cores): a few
/// requests started or cancelled while one server floods its response stalled every task in the
/// process, watchers and WebSocket pings included, for 40 s (a CI run of the test suite, stack
/// samples in gdb). Here they wait on serial queues of Baton's instead, each of which, unlike the
/// global concurrent queues, gets a thread of its own however busy the others are. A few lanes,
/// so that one slow wait does not hold up every other request's; a task's calls (resume, then
/// cancel) stay in order in its own lane.
enum URLSessionCalls {
    private static let lanes = (0..<4).map { DispatchQueue(label: "Baton.URLSessionCalls.\($0)") }

    private static func lane(for object: AnyObject?) -> DispatchQueue {
        guard let object else { return lanes[Int.random(in: 0..<lanes.count)] }
        return lanes[Int(UInt(bitPattern: ObjectIdentifier(object).hashValue) % UInt(lanes.count))]
    }

    /// Runs `work` in a lane and returns its result.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            lane(for: nil).async { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` in `object`'s lane (after the calls made there for it before), without waiting.
    static func async(for object: AnyObject, _ work: @escaping @Sendable () -> Void) {
        lane(for: object).async(execute: work)
    }
}

/// The session every request runs in and its delegate; invalidated when the client goes away.
final class StreamingSession: @unchecked Sendable {
    let delegate = StreamingSessionDelegate()
    let configuration: URLSessionConfiguration
    private let lock = NSLock()
    private var created: URLSession?

    init(configuration: URLSessionConfiguration) {
        self.configuration = configuration
    }

    /// Made on first use.
    var session: URLSession {
        lock.withLock {
            if let created { return created }
            let session = URLSession(
                configuration: configuration, delegate: delegate, delegateQueue: StreamingSessionDelegate.makeDelegateQueue())
            created = session
            return session
        }
    }

    deinit {
        if let created { URLSessionCalls.async(for: created) { created.finishTasksAndInvalidate() } }
    }
}

/// Routes each task's events. A streamed task: the response head resumes the caller, each data
/// chunk goes to the body stream, completion ends it (with the error, if any). A collected task:
/// the chunks are gathered and completion resumes the caller with all of them. Either way the
/// body is counted against its limit as it arrives (the task is cancelled past it), and a
/// redirect is declined and reported as ``RedirectDeclined``.
final class StreamingSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct TaskState {
        var head: CheckedContinuation<URLResponse, any Error>?
        let body: AsyncThrowingStream<Data, any Error>.Continuation?
        var whole: CheckedContinuation<(URLResponse, Data), any Error>?
        var collected = Data()
        var received = 0
        let limit: Int?
        var response: URLResponse?
        var failure: (any Error)?
        var redirect: RedirectDeclined?
        let onFinish: @Sendable () -> Void
        var window: ReceiveWindow?
    }

    private let lock = NSLock()
    private var states: [Int: TaskState] = [:]

    /// The queue a session calls this delegate on: on Linux, ``ImmediateDelegateQueue``; elsewhere
    /// a serial `OperationQueue`.
    static func makeDelegateQueue() -> OperationQueue {
        #if canImport(FoundationNetworking)
            return ImmediateDelegateQueue()
        #else
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            return queue
        #endif
    }

    /// Starts `task` and returns its response head and its body as a stream; `window` counts
    /// what the stream holds that its consumer has not taken (past its limit, the task fails).
    func start(
        _ task: URLSessionTask, limit: Int?, window: ReceiveWindow, onFinish: @escaping @Sendable () -> Void
    ) async throws -> (URLResponse, AsyncThrowingStream<Data, any Error>) {
        let (delivered, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let handle = cancellableHandle(for: task)
        continuation.onTermination = { @Sendable termination in
            if case .cancelled = termination { handle.cancel() }
        }
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<URLResponse, any Error>) in
                lock.withLock {
                    states[task.taskIdentifier] = TaskState(
                        head: head, body: continuation, limit: limit, onFinish: onFinish, window: window)
                }
                URLSessionCalls.async(for: task) { task.resume() }
            }
        } onCancel: {
            handle.cancel()
        }
        // What the consumer takes leaves the window.
        let chunks = BackPressuredStream.make(of: Data.self, capacity: 1) { send in
            for try await chunk in delivered {
                window.taken(chunk.count)
                guard await send(chunk) else { return }
            }
        }
        return (head, chunks)
    }

    /// Runs `task` to its end and returns its response and whole body. The task is cancelled
    /// from another thread when the caller's task is (``CancellableTaskHandle``): on Linux,
    /// `URLSession.data(for:)` deadlocked when a fetch was cancelled as its response completed.
    func collect(_ task: URLSessionTask, limit: Int?) async throws -> (URLResponse, Data) {
        let handle = cancellableHandle(for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (whole: CheckedContinuation<(URLResponse, Data), any Error>) in
                lock.withLock {
                    states[task.taskIdentifier] = TaskState(head: nil, body: nil, whole: whole, limit: limit, onFinish: {})
                }
                URLSessionCalls.async(for: task) { task.resume() }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    /// Cancels `task` on its lane, unless it is a redirect this delegate declined: such a task
    /// ends by itself at once (the redirect's response is its last), and FoundationNetworking
    /// traps ("Received callback for HTTP redirection, but we're not waiting for it") when a
    /// cancel reaches it between the declining and its own handling of that decision (seen
    /// once in a full test run, in the endless-redirect tests).
    func cancel(_ task: URLSessionTask) {
        URLSessionCalls.async(for: task) { [self] in
            guard !lock.withLock({ states[task.taskIdentifier]?.redirect != nil }) else { return }
            task.cancel()
        }
    }

    /// A handle that cancels `task` through ``cancel(_:)``, set to it; once this delegate is
    /// gone, a cancel goes to the task's lane directly.
    private func cancellableHandle(for task: URLSessionTask) -> CancellableTaskHandle {
        let handle = CancellableTaskHandle { [weak self] task in
            if let self { self.cancel(task) } else { URLSessionCalls.async(for: task) { task.cancel() } }
        }
        handle.set(task)
        return handle
    }

    /// Fails the task with `error` (the first failure wins): its caller is resumed at once, what
    /// it gathered is released, and it is cancelled. At once, because the cancel takes effect only
    /// once libcurl is done with what it has read: it reads up to megabytes at a time, and
    /// inflating that from a compression bomb takes seconds (the chunks it still delivers are
    /// dropped, so memory stays bounded meanwhile).
    private func fail(_ task: URLSessionTask, with error: any Error) {
        typealias Waiters = (
            CheckedContinuation<(URLResponse, Data), any Error>?, CheckedContinuation<URLResponse, any Error>?,
            AsyncThrowingStream<Data, any Error>.Continuation?
        )
        let (whole, head, body) = lock.withLock { () -> Waiters in
            guard var state = states[task.taskIdentifier], state.failure == nil else { return (nil, nil, nil) }
            state.failure = error
            let waiters = (state.whole, state.head, state.body)
            state.whole = nil
            state.head = nil
            state.collected = Data()
            states[task.taskIdentifier] = state
            return waiters
        }
        whole?.resume(throwing: error)
        head?.resume(throwing: error)
        body?.finish(throwing: error)
        cancel(task)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // The Location as the server wrote it, resolved against the response's URL: FoundationNetworking
        // turns a location without a host (`file:///etc/passwd`) into a path on the same server.
        let written = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0, relativeTo: response.url)?.absoluteURL }
        if let location = written ?? request.url {
            lock.withLock {
                states[task.taskIdentifier]?.redirect = RedirectDeclined(status: response.statusCode, location: location)
            }
        }
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let limit = lock.withLock { states[dataTask.taskIdentifier]?.limit }
        if let limit, response.expectedContentLength > Int64(limit) {
            fail(dataTask, with: HTTPClientLimitError.responseTooLarge(limit: limit))
            completionHandler(.cancel)
            return
        }
        // A redirect's head waits for the task's end: the redirect may be declined by then.
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        let head = lock.withLock { () -> CheckedContinuation<URLResponse, any Error>? in
            states[dataTask.taskIdentifier]?.response = response
            guard !(300..<400).contains(status) else { return nil }
            defer { states[dataTask.taskIdentifier]?.head = nil }
            return states[dataTask.taskIdentifier]?.head
        }
        head?.resume(returning: response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (body, overLimit, window) = lock.withLock {
            () -> (AsyncThrowingStream<Data, any Error>.Continuation?, Int?, ReceiveWindow?) in
            guard var state = states[dataTask.taskIdentifier], state.failure == nil else { return (nil, nil, nil) }
            state.received += data.count
            if let limit = state.limit, state.received > limit {
                states[dataTask.taskIdentifier] = state
                return (nil, limit, nil)
            }
            if state.whole != nil {
                // Moved out while appending, so the buffer is not copied.
                states[dataTask.taskIdentifier] = nil
                state.collected.append(data)
            }
            states[dataTask.taskIdentifier] = state
            return (state.body, nil, state.window)
        }
        if let overLimit {
            fail(dataTask, with: HTTPClientLimitError.responseTooLarge(limit: overLimit))
            return
        }
        if let window, !window.delivered(data.count) {
            fail(dataTask, with: HTTPClientLimitError.consumerFellBehind(limit: window.limit))
            return
        }
        body?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = lock.withLock({ states.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.onFinish()
        let response = state.response ?? task.response
        // FoundationNetworking redirects only 301, 302, 303 and 307 through the delegate: a 308
        // (and any of them it passed by) ends the task with its head, and is declined here alike.
        var redirect = state.redirect
        if redirect == nil, error == nil, state.failure == nil, let http = response as? HTTPURLResponse,
            [301, 302, 303, 307, 308].contains(http.statusCode),
            let location = http.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: http.url)?.absoluteURL
        {
            redirect = RedirectDeclined(status: http.statusCode, location: target)
        }
        let failure: (any Error)? = state.failure ?? redirect.map { $0 as any Error } ?? error
        if let head = state.head {
            if let failure {
                head.resume(throwing: failure)
            } else if let response {
                head.resume(returning: response)
            } else {
                head.resume(throwing: URLError(.badServerResponse))
            }
        }
        if let failure {
            state.body?.finish(throwing: failure)
        } else {
            state.body?.finish()
        }
        if let whole = state.whole {
            if let failure {
                whole.resume(throwing: failure)
            } else if let response {
                whole.resume(returning: (response, state.collected))
            } else {
                whole.resume(throwing: URLError(.badServerResponse))
            }
        }
    }
}

/// A URLSession task to cancel from a Swift task's cancellation handler: the cancel runs on
/// another thread, never inside the handler (see `StreamingSessionDelegate.collect`), and a cancel that
/// comes before the task exists cancels it as soon as it is set.
final class CancellableTaskHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false
    /// Cancels a task on another thread (the delegate's ``StreamingSessionDelegate/cancel(_:)``).
    private let cancelTask: @Sendable (URLSessionTask) -> Void

    init(cancel: @escaping @Sendable (URLSessionTask) -> Void) {
        cancelTask = cancel
    }

    func set(_ task: URLSessionTask) {
        let cancelNow = lock.withLock { () -> Bool in
            self.task = task
            return cancelled
        }
        if cancelNow { cancelTask(task) }
    }

    func cancel() {
        let task = lock.withLock { () -> URLSessionTask? in
            cancelled = true
            return self.task
        }
        if let task { cancelTask(task) }
    }
}
