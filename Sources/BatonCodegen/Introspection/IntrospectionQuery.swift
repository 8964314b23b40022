/// The introspection query `baton fetch-schema` sends (the standard one, with repeatable
/// directives and `specifiedByURL`).
public enum IntrospectionQuery {
    /// The query's text.
    public static let text = """
        query IntrospectionQuery {
          __schema {
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
            directives { name description isRepeatable locations args { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description specifiedByURL
          fields(includeDeprecated: true) {
            name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason
          }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
        fragment TypeRef on __Type {
          kind name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
        }
        """
}
