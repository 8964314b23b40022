// BatonExampleAPI's operation types are generated during the build by BatonCodegenPlugin, from
// the documents in graphql/ and the graphql("""…""") literals in this target's Swift files,
// against the example server's schema (see graphql/baton.json).
import BatonAPI

/// Documents written in Swift, Relay style: `HeroNameQuery` is generated from this literal.
enum ExampleDocuments {
    // Apollo iOS's "Fetching queries" (seed 003), as written.
    static let heroName = graphql("""
        query HeroName($episode: Episode) {
          hero(episode: $episode) {
            name
          }
        }
        """)
}
