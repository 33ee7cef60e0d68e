curl --url-query =encodethis http://example.net/foo
