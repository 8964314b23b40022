import BatonDigest
import Foundation
import GraphQL
import Hummingbird

/// Reads a GraphQL multipart request (the GraphQL multipart request spec) as its body arrives:
/// the `operations` and `map` fields, then the files, each hashed with SHA-256 chunk by chunk
/// so a file of any size passes through in bounded memory. Each file's place in the operations
/// (`variables.file`, `variables.files.1`) is filled with its field name, which resolvers look up
/// in the request's uploads.
enum MultipartUploadReader {
    /// The largest `operations` or `map` field read.
    static let maximumFieldSize = 1024 * 1024

    struct Upload: Sendable {
        /// The `operations` JSON with every file's place filled with its field name.
        let operations: Data
        /// The files by field name.
        let files: [String: UploadedFile]
    }

    struct Malformed: Error {
        let message: String
    }

    /// The `boundary` of a `multipart/form-data` content type; nil for another type.
    static func boundary(ofContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    static func read(_ body: RequestBody, boundary: String) async throws(Malformed) -> Upload {
        var parser = MultipartFormDataParser(boundary: boundary)
        let state = PartState()
        do {
            for try await chunk in body {
                try chunk.withUnsafeReadableBytes { bytes in
                    try parser.append(bytes) { event in
                        switch event {
                        case .begin(let headers): state.begin(headers)
                        case .content(let bytes): state.content(bytes)
                        case .end: state.complete()
                        }
                    }
                }
                if let problem = state.problem { throw Malformed(message: problem) }
            }
        } catch let error as Malformed {
            throw error
        } catch let error as MultipartFormDataParser.Malformed {
            throw Malformed(message: error.message)
        } catch {
            throw Malformed(message: "The multipart body could not be read: \(error).")
        }
        guard parser.isFinished else {
            throw Malformed(message: "The multipart body ended before its closing delimiter.")
        }
        guard let operationsData = state.fields["operations"] else {
            throw Malformed(message: "The multipart request has no operations field.")
        }
        guard let mapData = state.fields["map"] else {
            throw Malformed(message: "The multipart request has no map field.")
        }
        let operations: Map
        let map: Map
        do {
            operations = try JSONDecoder().decode(Map.self, from: operationsData)
            map = try JSONDecoder().decode(Map.self, from: mapData)
        } catch {
            throw Malformed(message: "The operations or map field is not valid JSON.")
        }
        guard case .dictionary(let entries) = map else {
            throw Malformed(message: "The map field must be a JSON object.")
        }
        var filled = operations
        for (fieldName, paths) in entries {
            guard state.files[fieldName] != nil else {
                throw Malformed(message: "The map names the file field \(fieldName), which the request does not have.")
            }
            guard case .array(let pathList) = paths else {
                throw Malformed(message: "The map entry \(fieldName) must be a list of paths.")
            }
            for case .string(let path) in pathList {
                guard let updated = set(.string(fieldName), at: path.split(separator: ".").map(String.init)[...], in: filled) else {
                    throw Malformed(message: "The map path \(path) does not lead to a null in operations.")
                }
                filled = updated
            }
        }
        guard let operationsJSON = try? GraphQLJSONEncoder().encode(filled) else {
            throw Malformed(message: "The operations could not be re-encoded.")
        }
        return Upload(operations: operationsJSON, files: state.files)
    }

    /// `value` placed at an object path (`variables.files.0`); nil when the path leads nowhere.
    private static func set(_ value: Map, at path: ArraySlice<String>, in map: Map) -> Map? {
        guard let key = path.first else { return value }
        switch map {
        case .dictionary(var fields):
            guard let child = fields[key], let updated = set(value, at: path.dropFirst(), in: child) else { return nil }
            fields[key] = updated
            return .dictionary(fields)
        case .array(var elements):
            guard let index = Int(key), elements.indices.contains(index),
                let updated = set(value, at: path.dropFirst(), in: elements[index])
            else { return nil }
            elements[index] = updated
            return .array(elements)
        default:
            return nil
        }
    }
}

/// The parser's progress through the current part.
private final class PartState {
    var fields: [String: Data] = [:]
    var files: [String: UploadedFile] = [:]
    var problem: String?

    private var headers: [String: String] = [:]
    private var fieldData = Data()
    private var hasher: SHA256?
    private var size = 0

    private var isFile = false

    func begin(_ partHeaders: [String: String]) {
        headers = partHeaders
        isFile = headers["content-disposition"].map { Self.parameter("filename", in: $0) != nil } ?? false
        if isFile { hasher = SHA256() }
    }

    func content(_ bytes: UnsafeRawBufferPointer) {
        if isFile {
            hasher?.update(bufferPointer: bytes)
            size += bytes.count
        } else {
            if fieldData.count + bytes.count > MultipartUploadReader.maximumFieldSize {
                problem = "A multipart field is larger than \(MultipartUploadReader.maximumFieldSize) bytes."
                return
            }
            fieldData.append(contentsOf: bytes)
        }
    }

    func complete() {
        defer {
            headers = [:]
            fieldData = Data()
            hasher = nil
            size = 0
        }
        guard let disposition = headers["content-disposition"], let name = Self.parameter("name", in: disposition) else {
            problem = "A multipart part has no Content-Disposition name."
            return
        }
        if let filename = Self.parameter("filename", in: disposition) {
            let digest = (hasher ?? SHA256()).finalize()
            files[name] = UploadedFile(
                id: "upload-\(files.count + 1)", path: name, filename: filename,
                mimetype: headers["content-type"] ?? "application/octet-stream", size: size,
                sha256: SHA256.hex(digest))
        } else {
            fields[name] = fieldData
        }
    }

    /// A parameter of a `Content-Disposition` value: `name="0"` → `0`.
    static func parameter(_ name: String, in disposition: String) -> String? {
        for part in disposition.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}
