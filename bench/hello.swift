// `make bench`'s start-up floor: a one-line Swift program built like apicli's release
// (`swiftc -O -static-stdlib`). `apicli --version` is measured against it (goal <= 1.5x).
print("hello")
