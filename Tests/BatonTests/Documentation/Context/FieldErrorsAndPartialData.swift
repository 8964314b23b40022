// FieldErrorsAndPartialData.md: a client, the article's Profile queries (ProfileAPI, generated
// from its graphql blocks), and the app's own views the snippets hand data to.
import Baton
import BatonExampleAPI
import Foundation
import ProfileAPI

func show(_ text: String?) {}
func show(_ data: HeroAndFriendsQuery.Data, errors: [GraphQLError]) {}
func showRetry(_ message: String, at path: ResponsePath?) {}
func showError(_ error: any Error) {}
func showError(_ path: ResponsePath?) {}
func showPlaceholders(_ json: JSONObject, missing: [ResponsePath]) {}
func showSpinner() {}

// MARK: snippet
func snippet(client: BatonClient) async throws {
    /* snippet */
}
