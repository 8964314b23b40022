import BatonAPI

extension SelectionSet {
    /// Builds this selection set's data from a mock, as a server would answer it: every selected
    /// field from the mock's value (nested mocks for objects), `__typename` from the mocks' types,
    /// type conditions and fragment spreads applied for the mock's type, `@include`/`@skip` decided
    /// by `variables` (a condition on a variable not given takes what the mock sets). The result
    /// is checked against the selections, like a response.
    ///
    /// ```swift
    /// let data = try HeroQuery.Data.from(Mock<Query>(hero: Mock<Droid>(name: "R2-D2")), variables: query.variablesJSON)
    /// ```
    public static func from(_ mock: some AnyMock, variables: JSONObject = [:]) throws(MockDataError) -> Self {
        guard Self.__parentType.matches(mock.__typename) else {
            throw MockDataError(
                path: [], message: "a mock of type \(mock.__typename) cannot be a \(Self.__parentType.name)")
        }
        let builder = MockDataBuilder(variables: variables)
        let object = try builder.object(from: mock, selections: Self.__selections, path: [])
        do {
            return try Self(jsonObject: object, variables: variables)
        } catch {
            throw MockDataError(path: error.path, message: "expected \(error.expected), found \(error.found)")
        }
    }
}
