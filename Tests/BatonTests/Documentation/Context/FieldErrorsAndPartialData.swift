// FieldErrorsAndPartialData.md: a client, the article's Profile queries (ProfileAPI, generated
// from its graphql blocks), and the app's own views the snippets hand data to.
import Baton
import BatonExampleAPI
import Foundation
import ProfileAPI

func show(_ value: Any...) {}
func show(_ data: HeroAndFriendsQuery.Data, errors: [GraphQLError]) {}
func showRetry(_ message: String, at path: [PathElement]?) {}
func showError(_ error: Any) {}
func showPlaceholders(_ json: JSONObject, missing: [String]) {}
func showSpinner() {}

// MARK: snippet
func snippet(client: BatonClient) async throws {
    /* snippet */
}
