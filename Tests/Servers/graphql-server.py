#!/usr/bin/env python3
"""A GraphQL server for apicli's tests (graphql-core, a real executor): loopback only, bounded lifetime.

    python3 Tests/Servers/graphql-server.py [--lifetime SECONDS]      # prints its URL, then serves

POST /graphql with {"query", "variables", "operationName"} (GraphQL over HTTP), or GET /graphql?query=…
&variables=…&operationName=… (queries only). Schema:

    type Query { user(id: ID!): User, broken: String }
    type User { id: ID!, name: String! }
    type Mutation { rename(id: ID!, name: String!): User }

`broken` raises, so its response has `errors`. GET /log lists the requests (method, body or query).
"""
import json
import threading
from urllib.parse import urlsplit, parse_qs

from graphql import build_schema, graphql_sync
from serve import QuietHandler, serve

SCHEMA = build_schema("""
type Query { user(id: ID!): User, broken: String }
type User { id: ID!, name: String! }
type Mutation { rename(id: ID!, name: String!): User }
""")
USERS = {"1": {"id": "1", "name": "Ada"}, "2": {"id": "2", "name": "Grace"}}
lock = threading.Lock()
log = []


def broken(*_):
    raise ValueError("this field always fails")


ROOT = {
    "user": lambda _info, id: USERS.get(id),
    "broken": broken,
    "rename": lambda _info, id, name: dict(USERS.get(id, {"id": id}), name=name),
}


class Handler(QuietHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, status, body, media="application/graphql-response+json"):
        self.send_json(status, body, content_type=media)

    def execute(self, query, variables, operation, method):
        with lock:
            log.append({"method": method, "query": query, "variables": variables, "operationName": operation,
                        "accept": self.headers.get("Accept")})
        if method == "GET" and query and "mutation" in query.split("{")[0]:
            return self.reply(405, {"errors": [{"message": "mutations need POST"}]})
        result = graphql_sync(SCHEMA, query, root_value=ROOT, variable_values=variables, operation_name=operation)
        body = {"data": result.data}
        if result.errors:
            body["errors"] = [e.formatted for e in result.errors]
        self.reply(200, body)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/log":
            with lock:
                return self.reply(200, list(log), "application/json")
        if url.path != "/graphql":
            return self.reply(404, {"errors": [{"message": "not found"}]})
        q = parse_qs(url.query)
        variables = json.loads(q["variables"][0]) if "variables" in q else None
        self.execute(q.get("query", [""])[0], variables, q.get("operationName", [None])[0], "GET")

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return self.reply(400, {"errors": [{"message": "the body is not JSON"}]})
        self.execute(body.get("query", ""), body.get("variables"), body.get("operationName"), "POST")


if __name__ == "__main__":
    serve(Handler, lifetime=120)
