// CommandLineAndPlugin.md: local cache mutations of Apollo's animal kingdom schema (AnimalKingdomAPI,
// generated from Tests/BatonCodegenTests/Fixtures/apollo/animalkingdom), a store and a pet's id.
import AnimalKingdomAPI
import BatonAPI
import BatonStore

// MARK: snippet
func snippet(store: Store, petID: DataID) throws {
    /* snippet */
}
