import BatonAPI
import BatonExampleAPI
import Foundation
import Testing

@testable import Baton

/// The pieces of incremental delivery on their own: splitting `multipart/mixed` as chunks arrive
/// and merging parts in both formats.
@Suite("Incremental delivery: parsing and merging")
struct IncrementalMergeTests {
    private func object(_ text: String) throws -> JSONObject {
        try #require(try JSONValue(parsing: text).objectValue)
    }

    @Test func multipartPartsAreSplitWhateverTheChunking() throws {
        let body = "\r\n---\r\ncontent-type: application/json\r\n\r\n{\"a\":1}\r\n---\r\ncontent-type: application/json\r\n\r\n{\"b\":2}\r\n-----\r\n"
        let bytes = Array(body.utf8)
        for size in [1, 2, 3, 7, 16, bytes.count] {
            var parser = MultipartMixedParser(boundary: "-")
            var parts: [String] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                let chunk = Data(bytes[start..<min(bytes.count, start + size)])
                parts += try parser.append(chunk).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(parts == [#"{"a":1}"#, #"{"b":2}"#], "chunks of \(size)")
            #expect(parser.isFinished)
            #expect(!parser.hasPartialPart)
        }
    }

    @Test func boundaryParameter() {
        #expect(MultipartMixedParser.boundary(ofContentType: #"multipart/mixed; boundary="-"; deferSpec=20220824"#) == "-")
        #expect(MultipartMixedParser.boundary(ofContentType: "multipart/mixed;boundary=graphql") == "graphql")
        #expect(MultipartMixedParser.boundary(ofContentType: "multipart/mixed") == "-")
    }

    /// graphql-js 17's example: a deferred fragment with `subPath` and a stream.
    @Test func specDraftFormat() throws {
        var merger = IncrementalResponseMerger(operationName: "Q")
        #expect(
            try merger.merge(
                object(
                    #"{"data":{"person":{"name":"Luke","homeworld":{"id":"p1"},"films":[{"title":"A New Hope"}]}},"pending":[{"id":"0","path":["person"],"label":"homeworld"},{"id":"1","path":["person","films"]}],"hasNext":true}"#
                )))
        #expect(merger.hasNext)
        _ = try merger.merge(
            object(
                #"{"incremental":[{"id":"0","subPath":["homeworld"],"data":{"name":"Tatooine"}},{"id":"1","items":[{"title":"Empire"}]}],"completed":[{"id":"0"}],"hasNext":true}"#
            ))
        _ = try merger.merge(object(#"{"incremental":[{"id":"1","items":[{"title":"Jedi"}]}],"completed":[{"id":"1","errors":[{"message":"done badly"}]}],"hasNext":false}"#))
        #expect(!merger.hasNext)
        #expect(merger.partCount == 3)
        #expect(
            JSONValue.object(merger.body).serializedString()
                == #"{"data":{"person":{"name":"Luke","homeworld":{"id":"p1","name":"Tatooine"},"films":[{"title":"A New Hope"},{"title":"Empire"},{"title":"Jedi"}]}},"errors":[{"message":"done badly"}]}"#
        )
    }

    @Test func deferSpec20220824Format() throws {
        var merger = IncrementalResponseMerger(operationName: "Q")
        _ = try merger.merge(object(#"{"data":{"person":{"name":"Luke","films":[{"title":"A New Hope"}]}},"hasNext":true}"#))
        _ = try merger.merge(
            object(
                #"{"incremental":[{"label":"homeWorldDefer","path":["person"],"data":{"homeWorld":{"name":"Tatooine"}}},{"label":"filmsStream","path":["person","films",1],"items":[{"title":"Empire"}]}],"hasNext":true}"#
            ))
        #expect(try !merger.merge(object("{}")))  // a heartbeat
        _ = try merger.merge(object(#"{"incremental":[{"label":"filmsStream","path":["person","films",2],"items":[{"title":"Jedi"}]}],"hasNext":false}"#))
        #expect(!merger.hasNext)
        #expect(
            JSONValue.object(merger.body).serializedString()
                == #"{"data":{"person":{"name":"Luke","films":[{"title":"A New Hope"},{"title":"Empire"},{"title":"Jedi"}],"homeWorld":{"name":"Tatooine"}}}}"#
        )
    }

    @Test func badPathsAreTypedErrors() throws {
        var merger = IncrementalResponseMerger(operationName: "Q")
        _ = try merger.merge(object(#"{"data":{"a":{"b":1}},"hasNext":true}"#))
        #expect {
            try merger.merge(object(#"{"incremental":[{"path":["nope"],"data":{"c":2}}],"hasNext":false}"#))
        } throws: { error in
            guard case .invalidResponse("Q", let reason)? = error as? BatonError else { return false }
            return reason.contains("nope")
        }
        #expect(throws: BatonError.self) {
            try merger.merge(object(#"{"incremental":[{"id":"9","data":{"c":2}}],"hasNext":false}"#))
        }
    }
}

/// Generated metadata marks deferred fragments, so data before they arrive decodes, and data
/// that did arrive is still checked.
@Suite("Deferred fragments in typed data")
struct DeferredFragmentDataTests {
    @Test func deferredFragmentsAreMarked() {
        let deferred = HeroDeferredQuery.Data.Hero.__selections.filter { selection in
            switch selection {
            case .inlineFragment(let fragment): return fragment.isDeferred
            case .fragmentSpread(let spread): return spread.isDeferred
            case .field: return false
            }
        }
        #expect(deferred.count == 2)
    }

    @Test func pendingFragmentsReadAsNil() throws {
        let initial: JSONObject = ["hero": ["__typename": "Human", "id": "1000", "name": "Luke Skywalker"]]
        let data = try HeroDeferredQuery.Data(jsonObject: initial)
        #expect(data.hero?.name == "Luke Skywalker")
        #expect(data.hero?.deferred == nil)
        #expect(data.hero?.fragments.heroAppearances == nil)

        // Arrived, but wrong: still a decoding error that names the path.
        let wrong: JSONObject = ["hero": ["__typename": "Human", "id": "1000", "name": "Luke Skywalker", "appearsIn": 3]]
        #expect {
            try HeroDeferredQuery.Data(jsonObject: wrong)
        } throws: { error in
            (error as? SelectionSetDecodingError)?.path.description == "hero.appearsIn"
        }
    }
}
