import APISupport
import APIYAML
import APIDiagnostics
/// One declared request: Moya's `TargetType` as data. Values that may hold `{param}` or `${VAR}` are
/// `Template`s; they are expanded when the target becomes an `Endpoint`.
package struct Target: Sendable {
    package var name: String
    package var service: String
    package var mark: Mark
    /// A one-line description for `apicli list`.
    package var doc: String?
    /// nil or empty: the base URL exactly (Moya's rule: no trailing slash is added).
    package var path: Template?
    /// Upper-cased RFC 9110 token; GET by default.
    package var method: String
    /// Defaults for `{placeholders}`, in declared order; `-p name=value` overrides.
    package var params: [(name: String, value: Template)]
    package var task: RequestTask
    package var headers: [Header]
    package var timeout: Double?
    package var validation: Validation?
    /// The default sample response, for `--stub`.
    package var sample: Sample?
    /// Named alternatives: `--stub --sample notFound`.
    package var samples: [(name: String, sample: Sample)]
    /// `expect:` for `apicli check`; nil: `validate:` decides.
    package var expect: Expectations? = nil
    /// `check:`; nil: checked when the method is GET, HEAD or OPTIONS.
    package var check: Bool? = nil
    /// `auth:`; `.none` turns off the service's or a rule's.
    package var auth: Auth? {
        get { authBox?.value }
        set { authBox = newValue.map(CopyOnWrite.init) }
    }
    /// `followRedirects:`; nil: the rule's, the service's, else true.
    package var followRedirects: Bool? = nil
    /// `capture:`: values this target's response gives the targets that need it.
    package var captures: [Capture] = []
    /// `needs:`: targets that run first; their captures fill this target's `{placeholders}`.
    package var needs: [Need] = []
    /// `until:`: repeat the request until the response meets a condition.
    package var until: Until? {
        get { untilBox?.value }
        set { untilBox = newValue.map(CopyOnWrite.init) }
    }
    /// `load:`: this target's weight and thresholds in `apicli load`.
    package var load: LoadSettings? {
        get { loadBox?.value }
        set { loadBox = newValue.map(CopyOnWrite.init) }
    }
    /// `stream:`: the idle timeout and reconnection of an event stream.
    package var stream: StreamSettings? {
        get { streamBox?.value }
        set { streamBox = newValue.map(CopyOnWrite.init) }
    }
    /// `each:`: one request per row, the row's fields as `{placeholders}` (`RowSet`).
    package var each: RowSource? {
        get { eachBox?.value }
        set { eachBox = newValue.map(CopyOnWrite.init) }
    }
    /// What the target says that works but is likely a mistake (`method: GTE`); `validate`, `show`
    /// and `call` print these on stderr.
    package var warnings: [Diagnostic] = []

    /// `auth:` and `until:` are written on few targets and are large inline: kept behind a
    /// reference when set, a pointer's size when not, so a big file of targets has much less
    /// memory to fill and copy. (Internal, not private: the memberwise initializer stays internal.)
    var authBox: CopyOnWrite<Auth>? = nil
    package var untilBox: CopyOnWrite<Until>? = nil  // package: `PreparedCall.until` reads it in place
    /// `when:` and conditional `expect:` blocks (`TargetConditions`): on few targets, so boxed too.
    var conditionsBox: CopyOnWrite<TargetConditions>? = nil

    /// `when:`: the target is skipped (reported as such) when it is false.
    package var when: When? {
        get { conditionsBox?.value.when }
        set { conditions.when = newValue }
    }

    /// `expect:` blocks with a `when:` of their own, in file order (those without one are merged
    /// into `expect`): `Workspace.build` merges the ones whose condition holds over `expect`.
    package var conditionalExpect: [ConditionalExpectations] {
        get { conditionsBox?.value.expect ?? [] }
        set { conditions.expect = newValue }
    }

    private var conditions: TargetConditions {
        get { conditionsBox?.value ?? TargetConditions() }
        set { conditionsBox = newValue.isEmpty ? nil : CopyOnWrite(newValue) }
    }

    var eachBox: CopyOnWrite<RowSource>? = nil
    /// `load:` and `stream:`, on few targets: boxed too.
    var loadBox: CopyOnWrite<LoadSettings>? = nil
    var streamBox: CopyOnWrite<StreamSettings>? = nil

    /// `service.target`, the name users type.
    package var qualifiedName: String { Self.qualifiedName(service: service, name: name) }

    /// `qualifiedName` from its parts: a pass over many targets reads the two fields (a call with
    /// a whole `Target` of an array copies it, every field retained and released).
    package static func qualifiedName(service: String, name: String) -> String { "\(service).\(name)" }

    /// The default sample (name nil) and every named one, in declaration order.
    package var allSamples: [(name: String?, sample: Sample)] {
        (sample.map { [(nil, $0)] } ?? []) + samples.map { ($0.name, $0.sample) }
    }

    package func sample(named name: String?) -> Sample? {
        guard let name else { return sample }
        return samples.first { $0.name == name }?.sample
    }
}
