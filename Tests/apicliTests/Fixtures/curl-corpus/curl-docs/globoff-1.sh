curl -g "https://example.com/{[]}}}}"
