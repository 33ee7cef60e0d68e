import APIYAML
import APIJSON
/// `capture:` on a target: a value taken from its response, named, to fill the `{placeholders}` of
/// the targets that `needs:` it (Hurl's captures, Tavern's `save:`).
package struct Capture: Sendable {
    package enum Source: Sendable {
        /// `{ json: "$.access_token" }`: the value at a JSONPath (the `expect:` subset).
        case json(JSONPath)
        /// `{ header: Location }`: a response header (the first of that name).
        case header(String)
        /// `{ body: "code=([0-9]+)" }`: the first group of a regular expression (the whole match without one).
        case body(String)
    }

    package var name: String
    package var source: Source
    /// `secret: true`, a secret-like name (TOKEN, SECRET, PASSWORD, KEY) or a credential header:
    /// the value is hidden in every output, like a secret `${VAR}`.
    package var secret: Bool
    package var mark: Mark
    /// `schema:` (as in `expect:`): the captured value must satisfy it, else the capture fails
    /// and the targets that need it do not run. A `json:` capture is judged as the JSON value it
    /// finds; a header or body capture as a string.
    package var schema: SchemaExpectation?
}

/// One entry of `needs:`: another target (`login` of the same service, or `service.target`) that
/// runs first, once per run, and whose captures this target may use.
package struct Need: Sendable {
    package var name: String
    package var mark: Mark

    /// `service.target`.
    package func qualified(in service: String) -> String {
        name.contains(".") ? name : "\(service).\(name)"
    }
}
