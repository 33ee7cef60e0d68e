import APISupport
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Credential {
    /// The header a bearer, basic or header credential adds to the request before it is sent
    /// (`AuthPlugin`, the library's URLRequests); nil for the ones settled while sending: OAuth2
    /// (a token fetched then), Digest (the answer to a 401 challenge), AWS (signed as it goes).
    package var staticHeader: HeaderField? {
        switch self {
        case .bearer(let token):
            return HeaderField("Authorization", "Bearer \(token)")
        case .basic(let user, let password):
            return HeaderField("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        case .header(let name, let value):
            return HeaderField(name, value)
        case .oauth2, .digest, .aws:
            return nil
        }
    }
}
