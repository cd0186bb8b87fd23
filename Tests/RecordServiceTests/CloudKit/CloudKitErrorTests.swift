import Foundation
import RecordKit
import Testing

@testable import RecordService

@Suite struct CloudKitErrorTests {
    @Test func engineErrorsGetCloudKitsCodesAndStatuses() {
        let cases: [(RecordError.Code, Bool, CloudKitError.Code, Int)] = [
            (.invalidArguments, false, .badRequest, 400),
            (.schemaViolation, false, .badRequest, 400),
            (.limitExceeded, false, .badRequest, 400),
            (.unknownItem, false, .notFound, 404),
            (.serverRecordChanged, false, .conflict, 409),
            (.serverRecordChanged, true, .exists, 409),
            (.transactionConflict, false, .conflict, 409),
            (.referenceViolation, false, .validatingReferenceError, 412),
            (.permissionFailure, false, .accessDenied, 403),
            (.internalError, false, .internalError, 500),
        ]
        for (engineCode, creating, code, status) in cases {
            let error = CloudKitError(RecordError(engineCode, "why", recordType: "Items", recordName: "I1"), creating: creating)
            #expect(error.code == code)
            #expect(error.status == status)
            #expect(error.reason == "why")
        }
    }

    @Test func anEngineRemedyBecomesAdviceInTheServicesTerms() {
        let error = RecordError(
            .schemaViolation, "Items has no field 'number'", recordType: "Items", field: "number", reason: .unknownField,
            remedy: .addField(recordType: "Items", field: "number", type: "INT64"))
        #expect(
            CloudKitError(error).reason
                == "Items has no field 'number'; write a value of 'number' on a Items record in the development environment to add the field, "
                + "then deploy the schema to production")
        #expect(ServiceError(error).reason == CloudKitError(error).reason)
        let transactions = RecordError(.unknownItem, "no transaction T1 is stored", reason: .unknownTransaction, remedy: .listTransactions)
        #expect(CloudKitError(transactions).reason == "no transaction T1 is stored; list the stored transactions with GET …/transactions")
    }

    @Test func aMissingZoneAndAnExpiredTokenHaveCloudKitsOwnCodesWhateverTheEngineCode() {
        let zone = ServiceError(RecordError(.unknownItem, "there is no zone named 'Work'", reason: .unknownZone, remedy: .createZone("Work")))
        #expect((zone.status, zone.code, zone.reason) == (.notFound, .zoneNotFound, "there is no zone named 'Work'; create it with zones/modify"))
        let expired = ServiceError(RecordError(.invalidArguments, "the token is too old", reason: .changeTokenExpired, remedy: .fetchChangesFromStart))
        #expect((expired.status, expired.code) == (.gone, .changeTokenExpired))
        let missing = ServiceError(RecordError(.unknownItem, "there is no Items record named 'I9'"))
        #expect((missing.status, missing.code) == (.notFound, .notFound))
    }

    @Test func statusesAreCloudKits() {
        let statuses = Dictionary(uniqueKeysWithValues: CloudKitError.Code.allCases.map { ($0.rawValue, $0.cloudKitStatus) })
        #expect(
            statuses == [
                "BAD_REQUEST": 400, "AUTHENTICATION_FAILED": 401, "ACCESS_DENIED": 403, "NOT_FOUND": 404,
                "ZONE_NOT_FOUND": 404, "CONFLICT": 409, "EXISTS": 409, "VALIDATING_REFERENCE_ERROR": 412,
                "QUOTA_EXCEEDED": 413, "AUTHENTICATION_REQUIRED": 421, "THROTTLED": 429, "INTERNAL_ERROR": 500,
                "TRY_AGAIN_LATER": 503, "CHANGE_TOKEN_EXPIRED": 410, "ATOMIC_ERROR": 400,
            ])
    }

    @Test func failedOperationsNameTheirRecordAndHaveNoNulls() {
        let error = CloudKitError(.conflict, "stale", recordName: "I1", recordType: "Items")
        #expect(error.serviceError.status.code == 409)
        #expect(error.operationResult.serialized == #"{"reason":"stale","recordName":"I1","recordType":"Items","serverErrorCode":"CONFLICT"}"#)
        #expect(CloudKitError(.badRequest, "bad").operationResult.serialized == #"{"reason":"bad","serverErrorCode":"BAD_REQUEST"}"#)
    }
}
