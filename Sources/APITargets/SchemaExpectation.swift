import APISupport
import APIYAML
import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `expect: { schema: … }`: the response body must satisfy a JSON Schema, written inline, read
/// from a file (`{ file: schemas/user.json }`), taken from an OpenAPI description
/// (`{ $ref: "openapi.yaml#/components/schemas/User" }`) or the operation's own responses
/// (`{ openapi: openapi.yaml, operation: getUser }`: the schema for the response's status and
/// JSON media type). Compiled when the target file is read; a bad schema is an error there.
package struct SchemaExpectation: Sendable, Equatable {
    /// `inline`, the file, the reference or `openapi.yaml getUser`, for messages.
    package var source: String
    package var mark: Mark
    /// By response status as OpenAPI writes it (`200`, `2XX`, `default`); one `*` entry for a
    /// schema that holds whatever the status.
    package var schemas: [(status: String, schema: JSONSchema)]
    /// Statuses the description documents without a JSON body (`204`, or a `200` of `text/plain`):
    /// nothing is checked for them, not even the `2XX` or `default` schema.
    var bodiless: Set<String> = []
    package var assertFormats: Bool
    /// The operation's JSON request body schema (`openapi:` + `operation:` only), for
    /// `mock --validate`; checked in the request direction (`readOnly` properties must be absent).
    package var request: JSONSchema?
    /// The description's `requestBody.required`: when false, no body at all is accepted.
    package var requestRequired = false
    /// The request body's media types the operation documents that are not JSON (`application/xml`,
    /// `multipart/form-data`…, lowercased): a body sent as one of them is not checked.
    package var requestOtherMediaTypes: [String] = []
    /// The operation's query and path parameters with schemas (`openapi:` + `operation:` only).
    package var parameters: [RequestParameter] = []
    /// How `mock --validate` refuses a bad request (`OpenAPIContract.refusal`).
    package var refusal = Refusal()

    package struct Refusal: Sendable {
        package var status = 400
        /// The JSON media type the operation documents for `status` (`application/problem+json`…).
        package var contentType = "application/json"
        /// False when the operation documents no client-error response at all (so 400 is the mock's own).
        package var documented = true
        /// A value the documented body schema of `status` accepts (built from it, as JSON text),
        /// for a refusal whose own body it does not accept; nil when there is none.
        package var sample: String?
    }

    package init(source: String, mark: Mark, schemas: [(status: String, schema: JSONSchema)], assertFormats: Bool = false) {
        self.source = source
        self.mark = mark
        self.schemas = schemas
        self.assertFormats = assertFormats
    }

    /// The schema a response with `status` must satisfy (exact code, then `2XX`, then `default`);
    /// nil when the description documents no JSON body for it.
    package func schema(for status: Int) -> JSONSchema? {
        if let any = schemas.first(where: { $0.status == "*" }) { return any.schema }
        return Self.pick(status, schemas, bodiless: bodiless)
    }

    /// The rule `schema(for:)` picks by, for whatever stands for a schema (`import openapi` judges
    /// its samples by the schema node this picks): `schemas` by status as OpenAPI writes it,
    /// `bodiless` the statuses (upper-cased) documented without a JSON body.
    package static func pick<Schema>(_ status: Int, _ schemas: [(status: String, schema: Schema)], bodiless: Set<String>) -> Schema? {
        if let exact = schemas.first(where: { $0.status == String(status) }) { return exact.schema }
        if bodiless.contains(String(status)) { return nil }
        if let family = schemas.first(where: { $0.status.uppercased() == "\(status / 100)XX" }) { return family.schema }
        if bodiless.contains("\(status / 100)XX") { return nil }
        return schemas.first { $0.status == "default" }?.schema
    }

    /// The response statuses the operation documents (`200`, `4XX`, `DEFAULT`), sorted.
    package var documentedStatuses: [String] { Set(schemas.map { $0.status.uppercased() }).union(bodiless).sorted() }

    /// Whether the operation documents a response of `status` (exact, `4XX`, or `default`); nil when
    /// the schema is not an OpenAPI operation's (one `*` schema) or the operation documents none.
    package func documents(_ status: Int) -> Bool? {
        let documented = Set(documentedStatuses)
        guard !documented.isEmpty, !documented.contains("*") else { return nil }
        return documented.contains(String(status)) || documented.contains("\(status / 100)XX") || documented.contains("DEFAULT")
    }

    /// The request body's violations; empty when there is no request schema, or when `contentType`
    /// is a non-JSON media type the operation documents. A body that is not JSON is one violation at `$`.
    package func requestViolations(_ body: Data, contentType: String? = nil) -> [SchemaViolation] {
        guard let request, !(body.isEmpty && !requestRequired) else { return [] }
        if let contentType, let type = contentType.split(separator: ";").first.map({ String($0).trimmingSpaces().lowercased() }),
           requestOtherMediaTypes.contains(type) { return [] }
        guard let value = JSONValue.parse(body) else {
            return [SchemaViolation(instancePath: "$", schemaPath: "#", keyword: "type", expected: "a JSON body",
                                    got: body.isEmpty ? "no body" : "not JSON", message: "the request body is not JSON")]
        }
        return request.violations(of: value, options: SchemaOptions(assertFormats: assertFormats, direction: .request))
    }

    /// Each parameter's violations, in the description's order, for `request` (its query, the
    /// path's captures, its headers and cookies); parameters without any left out.
    package func parameterViolations(_ request: RequestParameter.Request) -> [(parameter: RequestParameter, violations: [SchemaViolation])] {
        let queryNames = Set(parameters.filter { $0.place == .query }.map(\.name))
        return parameters.compactMap { p in
            guard let found = p.violations(in: request, others: queryNames.subtracting([p.name]), assertFormats: assertFormats),
                  !found.isEmpty else { return nil }
            return (p, found)
        }
    }

    package static func == (a: SchemaExpectation, b: SchemaExpectation) -> Bool {
        a.source == b.source && a.mark == b.mark && a.assertFormats == b.assertFormats
    }
}
