/// A GraphQL `ID` as generated code and Apollo iOS spell it: a `String` (`BookTripMutation(id: id)`
/// with `id: GraphQLID`).
public typealias GraphQLID = String
