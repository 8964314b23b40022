/// Resolvers of the upload mutations (multipart requests: each `Upload` value is the name of
/// the request's file field, looked up in the request's uploads) and of `Subscription.count`.
enum UploadAndCountResolvers {
    static var table: ResolverTable {
        var table = ResolverTable()
        table.field("Mutation", "singleUpload") { call in
            try file(call, call.required("file") { $0.string })
        }
        table.field("Mutation", "multipleUpload") { call in
            try files(call, "files")
        }
        table.field("Mutation", "multipleParameterUpload") { call in
            [try file(call, call.required("singleFile") { $0.string })] + (try files(call, "multipleFiles"))
        }
        table.events("Subscription", "count") { call in
            let to = try call.required("to") { $0.int }
            return AsyncThrowingStream { continuation in
                if to >= 1 {
                    for number in 1...to {
                        continuation.yield(number)
                    }
                }
                continuation.finish()
            }
        }
        table.field("Subscription", "count") { call in call.source }
        return table
    }

    private static func file(_ call: FieldCall, _ name: String) throws -> UploadedFile {
        guard let file = call.context.uploads[name] else {
            throw ResolverError("No file was uploaded for \(name): send the request as multipart/form-data with a map entry for it.")
        }
        return file
    }

    private static func files(_ call: FieldCall, _ argument: String) throws -> [UploadedFile] {
        let names = try call.required(argument) { $0.array?.compactMap(\.string) }
        return try names.map { try file(call, $0) }
    }
}
