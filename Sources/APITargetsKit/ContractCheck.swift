import APIDiagnostics
import APITargets
import APIEndpoint
import APIVerdict

extension TargetCatalog {
    /// Every sample of every target judged against its target's `expect:` (status, headers,
    /// JSONPath, schema) and `validate:`, offline, as `apicli validate` judges them: a sample that
    /// fails without `expectFailure: true`, or passes with it, is a problem at the sample; so are
    /// `needs:` that name nothing and files that are not there. Empty: every sample keeps its contract.
    ///
    /// ```swift
    /// XCTAssertEqual(catalog.sampleProblems(), [])     // XCTest
    /// #expect(catalog.sampleProblems().isEmpty)        // Swift Testing
    /// ```
    public func sampleProblems() -> [TargetsProblem] {
        CatalogCheck.problems(of: catalog, workspace: workspace).map(TargetsProblem.init)
    }
}
