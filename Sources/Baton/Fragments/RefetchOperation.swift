import BatonAPI

/// A generated query sent with variables given as JSON: how pagination and refetching run a
/// fragment's refetch query with values only known at run time (cursors, counts).
struct RefetchOperation<Query: GraphQLQuery>: GraphQLQuery {
    typealias Data = Query.Data

    static var operationName: String { Query.operationName }
    static var operationDocument: String { Query.operationDocument }
    static var operationIdentifier: String { Query.operationIdentifier }

    let values: JSONObject

    var variables: GraphQLVariables? {
        var result: GraphQLVariables = [:]
        for (name, value) in values { result[name] = value }
        return result
    }
}
