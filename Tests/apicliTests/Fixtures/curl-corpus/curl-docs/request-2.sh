curl -X NLST ftp://example.com/
