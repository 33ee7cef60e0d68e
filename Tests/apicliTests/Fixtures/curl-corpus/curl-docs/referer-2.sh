curl --referer "https://fake.example;auto" -L http://localhost:28139/docs
