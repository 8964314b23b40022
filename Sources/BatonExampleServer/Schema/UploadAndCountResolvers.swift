/// Resolvers of the upload mutations (served only once multipart requests are) and of
/// `Subscription.count`.
enum UploadAndCountResolvers {
    static var table: ResolverTable {
        var table = ResolverTable()
        for field in ["singleUpload", "multipleUpload", "multipleParameterUpload"] {
            table.field("Mutation", field) { _ in throw ResolverError("uploads need a multipart request") }
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
}
