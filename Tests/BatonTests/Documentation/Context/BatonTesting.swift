// BatonTesting.md: the data the first block builds from mocks.
import Baton
import BatonExampleAPI
import BatonTesting

// MARK: snippet
func snippet(data: HeroAndFriendsQuery.Data) async throws {
    /* snippet */
}
