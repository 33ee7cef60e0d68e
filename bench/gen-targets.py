"""Writes a service file of N targets to stdout (the bench's big-file rows: list, validate, one call
in a large file). Usage: python3 bench/gen-targets.py N"""
import sys

n = int(sys.argv[1])
print("baseURL: http://127.0.0.1:9\nvalidate: success\ntargets:")
for i in range(n):
    print(f"  t{i}:\n    path: /items/{{id}}/t{i}\n    method: {'GET' if i % 3 else 'POST'}\n"
          f"    params: {{ id: {i} }}\n    task: {{ query: {{ page: {i % 7}, q: \"x{i}\" }} }}\n"
          f"    expect: {{ status: 200, json: {{ \"$.id\": {i} }} }}\n"
          f"    sample: {{ status: 200, json: {{ id: {i} }} }}")
