import BatonAPI
import Foundation

/// Builds the body of an upload by the GraphQL multipart request spec: the `operations` field
/// (the request's JSON with each file's variable set to `null`), the `map` field (file field
/// name → the operations paths it fills) and one part per file, in that order.
///
/// Files are grouped by `fieldName` in the order their field names first appear. A field
/// holding one file fills `variables.<field>`; a field whose variable is a list, or that has
/// several files, fills `variables.<field>.0`, `variables.<field>.1`, … .
enum MultipartUploadRequest {
    static func body(for request: GraphQLRequest, boundary: String? = nil) -> MultipartFormBody {
        var fieldNames: [String] = []
        var filesByField: [String: [GraphQLFile]] = [:]
        for file in request.files {
            if filesByField[file.fieldName] == nil { fieldNames.append(file.fieldName) }
            filesByField[file.fieldName, default: []].append(file)
        }

        var variables = request.variables
        var map = JSONObject()
        var ordered: [GraphQLFile] = []
        for fieldName in fieldNames {
            let files = filesByField[fieldName] ?? []
            let isList = files.count > 1 || variables[fieldName]?.listValue != nil
            if isList {
                variables[fieldName] = .list(Array(repeating: .null, count: files.count))
                for index in files.indices {
                    map[String(ordered.count)] = .list([.string("variables.\(fieldName).\(index)")])
                    ordered.append(files[index])
                }
            } else {
                variables[fieldName] = .null
                map[String(ordered.count)] = .list([.string("variables.\(fieldName)")])
                ordered.append(files[0])
            }
        }

        var operations = request
        operations.variables = variables
        var body = boundary.map(MultipartFormBody.init(boundary:)) ?? MultipartFormBody()
        body.append(name: "operations", text: JSONValue.object(operations.bodyJSON).serializedString())
        body.append(name: "map", text: JSONValue.object(map).serializedString())
        for (index, file) in ordered.enumerated() {
            body.append(name: String(index), filename: file.originalName, contentType: file.mimeType, content: file.content)
        }
        return body
    }
}
