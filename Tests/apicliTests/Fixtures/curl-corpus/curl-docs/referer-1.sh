curl --referer "https://fake.example" http://localhost:28139/docs
