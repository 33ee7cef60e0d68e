#!/usr/bin/env python3
"""AWS SigV4 verifier for SigV4BotocoreTests: botocore recomputes the signature of every request.

Usage: sigv4-server.py SECRET_KEY [--lifetime SECONDS]   (the venv's python: it needs botocore, `make venv`)

Prints its port, then serves 127.0.0.1 until killed (at most --lifetime, default 10 minutes). For each request it reads the
`Authorization: AWS4-HMAC-SHA256 Credential=AK/DAY/REGION/SERVICE/aws4_request,
SignedHeaders=…, Signature=…` header, rebuilds the request from what arrived (the signed headers,
the path and query as sent, the body) and has botocore's own signer (SigV4Auth, S3SigV4Auth for
s3) sign it with SECRET_KEY at the request's X-Amz-Date. 200 and {"verified": true, …} when the
two Authorization values are byte-equal, else 403 with both.
"""
import datetime
import hashlib
import json
import re
import threading

import botocore.auth
from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from serve import QuietHandler, serve

# botocore's clock is patched to the request's X-Amz-Date while it signs: one request at a time.
SIGNING = threading.Lock()
PATTERN = re.compile(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, "
                     r"SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$")


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, obj):
        self.send_body(status, "application/json", json.dumps(obj, indent=2, sort_keys=True).encode())

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        got = self.headers.get("Authorization") or ""
        match = PATTERN.match(got)
        if not match:
            return self.answer(403, {"verified": False, "error": "no AWS4-HMAC-SHA256 Authorization", "got": got})
        access, _, region, service, signed, _ = match.groups()
        amz_date = self.headers.get("X-Amz-Date") or ""
        request = AWSRequest(method=self.command, url="http://%s%s" % (self.headers.get("Host"), self.path), data=body)
        for name in signed.split(";"):
            for value in self.headers.get_all(name) or []:
                request.headers[name] = value
        token = self.headers.get("X-Amz-Security-Token")
        secret = self.server.args.secret
        signer = (S3SigV4Auth if service == "s3" else SigV4Auth)(Credentials(access, secret, token), service, region)
        at = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ")
        with SIGNING:
            botocore.auth.get_current_datetime = lambda *a, **k: at
            signer.add_auth(request)
        expected = request.headers["Authorization"]
        verified = expected == got
        self.answer(200 if verified else 403, {
            "verified": verified, "expected": expected, "got": got, "service": service, "region": region,
            "signedHeaders": signed.split(";"), "bodySHA256": hashlib.sha256(body).hexdigest(),
            "path": self.path,
        })

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


if __name__ == "__main__":
    serve(Handler, lambda p: p.add_argument("secret", help="the AWS secret access key the tests sign with"),
          lifetime=600, bare_port=True)
