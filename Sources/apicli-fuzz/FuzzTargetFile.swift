import APISupport
import APIYAML
import APIDiagnostics
import APITargets
import APIEndpoint
import APIVerdict
import Foundation

/// One input through everything a target file meets before a request is sent: the YAML layer,
/// the service decoder, the project-file decoder, diagnostics rendering, and for every target
/// that decodes, endpoint mapping and the request builder. Any trap, sanitizer report, hang or
/// unbounded allocation here is a bug; thrown `APIError`s are the expected outcome for bad input.
/// Samples are judged against their expectations as `validate` does.
enum FuzzOne {
    static let file = "fuzz.yaml"

    static func run(_ bytes: [UInt8]) {
        var renderer = DiagnosticRenderer()
        renderer.setSource(bytes, for: file)
        _ = try? YAMLParser.parse(bytes)
        do {
            _ = try Project.decode(bytes, file: file)
        } catch {
            render(error, &renderer)
        }
        let service: Service
        do {
            service = try TargetFile.decode(bytes, file: file, defaultName: "fuzz")
        } catch {
            render(error, &renderer)
            return
        }
        let workspace = Workspace(variables: ["FUZZ_TOKEN": "s3cr3t", "HOME": "/nonexistent"])
        // What `validate` and `check --stub` do with samples: decode their bodies, judge them
        // against `expect:` (JSONPath, regexes, headers, status).
        for diagnostic in SampleCheck.diagnostics(service, workspace: workspace) { _ = renderer.render(diagnostic) }
        for target in service.targets {
            do {
                _ = try workspace.build(target, in: service)
            } catch {
                render(error, &renderer)
            }
        }
    }

    private static func render(_ error: APIError, _ renderer: inout DiagnosticRenderer) {
        guard case .invalidInput(let diagnostics) = error else { return }
        for diagnostic in diagnostics { _ = renderer.render(diagnostic) }
    }
}

/// libFuzzer's entry point: one input, whatever its bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzOne.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

#if FUZZING
/// libFuzzer's driver, for a program with its own `main` (SwiftPM names an executable's entry point
/// itself, so libFuzzer's `main` cannot be used).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// Built by `make fuzz` (with -DFUZZING): libFuzzer's driver with the usual libFuzzer arguments.
/// In a normal build: replays the given files (or every file of the given folders) through the
/// same function, so a crashing input can be rerun under a debugger or by the tests.
@main
struct FuzzMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
        #else
        replay(CommandLine.arguments.dropFirst())
        #endif
    }

    static func replay(_ arguments: ArraySlice<String>) {
        var count = 0
        for argument in arguments {
            guard Path.exists(argument) else {
                FileHandle.standardError.write(Data("apicli-fuzz: no such file: \(argument)\n".utf8))
                exit(2)
            }
            let files = Path.isDirectory(argument)
                ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted()
                    .map { Path.join(argument, $0) }
                : [argument]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                FuzzOne.run([UInt8](data))
                count += 1
            }
        }
        print("apicli-fuzz: replayed \(count) inputs")
    }
}
