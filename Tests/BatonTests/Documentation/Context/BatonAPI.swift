// BatonAPI.md: the README's HeroQuery (MyAPI), the example API's SearchQuery, and an episode in
// a Swift optional.
import BatonAPI
import BatonExampleAPI
import MyAPI

// MARK: snippet
func snippet(episode: GraphQLNullable<GraphQLEnum<MyAPI.Episode>>?) {
    /* snippet */
}
