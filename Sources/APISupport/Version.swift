/// apicli's version: `apicli --version`, the default `User-Agent: apicli/VERSION` of every request,
/// and the Makefile's `VERSION` (the release files' names) all read this one line.
package let apicliVersion = "0.1.0"
