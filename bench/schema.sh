# Sourced by bench/run.sh (section 6): JSON Schema validation of a 1 MB response, whole process,
# apicli (`check --stub`: parse + validate the sample body against `expect: schema:`) against
# Python's jsonschema and jsonschema-rs (PyPI, in bench/out/venv), same files, same run.
echo "== 6. JSON Schema: 1 MB body, 5,000 objects (nested allOf, formats, patterns)"
sd=$out/schema
mkdir -p "$sd/targets/schemas" "$sd/targets/samples"
python3 - "$sd" <<'PY'
import json, sys, random
d = sys.argv[1]
random.seed(7)
schema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object", "required": ["items"],
  "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
  "$defs": {
    "Base": {"type": "object", "required": ["id", "created"],
             "properties": {"id": {"type": "string", "format": "uuid"}, "created": {"type": "string", "format": "date-time"}}},
    "Priced": {"allOf": [{"$ref": "#/$defs/Base"},
               {"properties": {"price": {"type": "number", "minimum": 0, "multipleOf": 0.01},
                               "currency": {"enum": ["EUR", "USD", "GBP"]}}}]},
    "Item": {"allOf": [{"$ref": "#/$defs/Priced"},
             {"type": "object", "required": ["sku", "email", "tags"],
              "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                             "email": {"type": "string", "format": "email"},
                             "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}, "uniqueItems": True},
                             "stock": {"type": "integer", "minimum": 0}}}]}}}
items = []
for i in range(5000):
    items.append({"id": "%08x-1234-4abc-8def-%012x" % (i, i * 7919), "created": "2024-05-%02dT10:%02d:00Z" % (i % 28 + 1, i % 60),
                  "price": round(random.randint(0, 99999) / 100, 2), "currency": ["EUR", "USD", "GBP"][i % 3],
                  "sku": "ABC-%04d" % (i % 10000), "email": "user%d@example.com" % i,
                  "tags": ["t%d" % (i % 7), "x%d" % (i % 11)], "stock": i % 50, "note": "lorem ipsum dolor sit amet " * 2})
json.dump(schema, open(d + "/targets/schemas/items.json", "w"))
json.dump({"items": items}, open(d + "/big.json", "w"))
json.dump({"items": items}, open(d + "/targets/samples/bench.items.json", "w"))
open(d + "/targets/bench.yaml", "w").write("""baseURL: http://127.0.0.1:9
targets:
  items:
    path: /items
    expect:
      schema: { file: schemas/items.json, formats: true }
    sample: { status: 200, headers: { Content-Type: application/json }, file: samples/bench.items.json }
""")
PY
cat >"$sd/py_jsonschema.py" <<'PY'
import json, sys, jsonschema
s = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
v = jsonschema.Draft202012Validator(s, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
sys.exit(0 if not list(v.iter_errors(d)) else 1)
PY
cat >"$sd/py_jsonschema_rs.py" <<'PY'
import sys, jsonschema_rs
s = open(sys.argv[1]).read(); d = open(sys.argv[2]).read()
v = jsonschema_rs.validator_for(__import__("json").loads(s), validate_formats=True)
sys.exit(0 if v.is_valid(__import__("json").loads(d)) else 1)
PY
size=$(python3 -c "import os; print('%.2f' % (os.path.getsize('$sd/big.json') / 1e6))")
if have hyperfine; then
  hyperfine -N -w 2 -r "$runs" --export-json "$out/schema-apicli.json" "$bin check --stub --targets $sd/targets" >/dev/null 2>&1
  a=$(median_ms "$out/schema-apicli.json"); row "apicli check --stub, schema on $size MB" "$a ms" "" ""
  for impl in jsonschema jsonschema_rs; do
    if "$venv/bin/python" -c "import $impl" 2>/dev/null; then
      # -i: Python's jsonschema reports float false positives on multipleOf: 0.01 (76.02 "is not a
      # multiple"), so it exits 1 on this valid document; it still validates all of it
      hyperfine -N -i -w 2 -r "$runs" --export-json "$out/schema-$impl.json" \
        "$venv/bin/python $sd/py_$impl.py $sd/targets/schemas/items.json $sd/big.json" >/dev/null 2>&1
      m=$(median_ms "$out/schema-$impl.json")
      row "python $impl (PyPI), same files" "$m ms" "" "apicli is $(ratio "$m" "$a")x faster (goal: jsonschema >= 10x; jsonschema-rs within 0.5x)"
    else
      row "python $impl" "n/a" "" "not in bench/out/venv"
    fi
  done
  read -r _ kib _ <<<"$(timed "$bin" check --stub --targets "$sd/targets")"
  row "apicli check --stub, schema: peak RSS" "" "$((kib / 1024)) MiB" ""
else
  row "JSON Schema" "n/a" "" "hyperfine missing"
fi
