import APISupport
import APITargets
import APITransport
/// OpenAPI 3.1 `webhooks`: requests the API sends to a receiver its user runs. Each becomes a
/// target of a second service, `SERVICE-webhooks`, whose `baseURL` is the receiver's URL
/// (`${SERVICE_WEBHOOK_URL:-http://localhost:8080}`), so `call` sends a sample delivery to the
/// user's receiver and `mock` plays a receiver that answers as the description says. The Path
/// Item may be a `$ref` (to `#/components/pathItems/…` or another file) like any in `paths`.
extension OpenAPIMapper {
    /// The webhooks service, or nil when the description has no webhooks (with `tags`: none tagged).
    func webhooks(tags: [String]) -> ServiceDraft? {
        guard let hooks = root["webhooks"] else { return nil }
        guard hooks.isMapping else {
            warn(hooks, "webhooks is not a mapping of names to Path Items; it is not imported")
            return nil
        }
        var draft = ServiceDraft(service: service + "-webhooks",
                                 baseURL: "${\(variablePrefix)_WEBHOOK_URL:-http://localhost:8080}")
        if let title = root["info"]?["title"]?.text { draft.doc = ImportText.oneLine(title + " webhooks") }
        var taken = UniqueNames()
        for (key, keyMark, rawItem) in hooks.entries where !key.hasPrefix("x-") {
            guard let item = loader.resolve(rawItem) else { continue }
            guard item.isMapping else {
                loader.warn(ImportWarning(file: hooks.file, mark: keyMark, message: "webhook '\(key)' is not a Path Item; it is not imported"))
                continue
            }
            let methods = operations(of: item)
            for (_, method, rawOp) in methods {
                guard let op = loader.resolve(rawOp) else { continue }
                guard tags.isEmpty || Self.tags(of: op).contains(where: tags.contains) else { continue }
                // Named from the operationId, else the webhook's name (with the method when it has several).
                let fallback = methods.count == 1 ? ImportNames.lowerCamel(key) : nil
                var t = target(method: method, path: Self.webhookPath(key), naming: "/" + key, op: op, item: item,
                               taken: &taken, fallbackName: fallback)
                t.notes.insert("Webhook '\(key)': the API sends this request to your receiver (baseURL).", at: 0)
                draft.targets.append(t)
            }
        }
        return draft.targets.isEmpty ? nil : draft
    }

    /// `/NAME`, the webhook's name as one path segment (`URLBuilder.encodeSegment`), so each
    /// webhook has its own route in `mock` and a `{` in a name never reads as a placeholder.
    static func webhookPath(_ name: String) -> String { "/" + URLBuilder.encodeSegment(name) }
}
