/// Which status codes a target accepts: Moya's `ValidationType`.
package enum Validation: Sendable, Equatable, CustomStringConvertible {
    /// Anything that is a response.
    case none
    /// 200–299.
    case success
    /// 200–399.
    case successAndRedirect
    /// Exactly these codes.
    case codes([Int])

    package func accepts(_ status: Int) -> Bool {
        switch self {
        case .none: return true
        case .success: return (200...299).contains(status)
        case .successAndRedirect: return (200...399).contains(status)
        case .codes(let codes): return codes.contains(status)
        }
    }

    package var description: String {
        switch self {
        case .none: return "none"
        case .success: return "success (200-299)"
        case .successAndRedirect: return "successAndRedirect (200-399)"
        case .codes(let codes): return "[" + codes.map(String.init).joined(separator: ", ") + "]"
        }
    }

    package static let names = ["none", "success", "successAndRedirect"]
}
