import APIDiagnostics
import APITargets
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `-F`: multipart parts from the command line (`call`, `show`).
struct FormOptions: ParsableArguments {
    @Option(name: [.customShort("F"), .customLong("form")],
            help: ArgumentHelp("Add or replace a multipart part: -F note=hi, -F 'file=@photo.png;type=image/png;filename=me.png' (repeatable).",
                               valueName: "name=value|name=@file"))
    var forms: [String] = []

    var values: FormValues { FormValues(forms: forms) }

    func validate() throws { try values.validate() }

    /// The parts, in order (`FormValues.parts`).
    func parts() throws(APIError) -> [FormPart] { try values.parts() }
}
