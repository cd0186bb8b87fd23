import HTTPTypes
import NIOHTTPTypes
import Testing

@testable import RecordService

@Suite struct RequestsInFlightTests {
    private static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "x", path: "/graphql"))

    @Test func aRequestIsReadFromItsHeadToItsEndAndUnansweredUntilItsResponseEnds() {
        var requests = RequestsInFlight()
        requests.arrived(Self.head)
        #expect(requests.isReading && requests.unanswered == 1)
        requests.arrived(.body(.init()))
        #expect(requests.isReading)
        requests.arrived(.end(nil))
        #expect(!requests.isReading && requests.unanswered == 1)
        requests.answered()
        #expect(requests.unanswered == 0)
    }

    @Test func pipelinedRequestsStayUnansweredUntilEachResponseEndsAndAnAnswerWithoutARequestCountsNothing() {
        var requests = RequestsInFlight()
        for _ in 0..<2 {
            requests.arrived(Self.head)
            requests.arrived(.end(nil))
        }
        #expect(requests.unanswered == 2)
        requests.answered()
        #expect(requests.unanswered == 1)
        requests.answered()
        // An answer written before any request (a 400 to an unreadable first head) counts no request.
        requests.answered()
        #expect(requests.unanswered == 0)
        requests.arrived(Self.head)
        #expect(requests.unanswered == 1)
    }
}
