curl -T "img[1-1000].png" ftp://ftp.example.com/
