#!/usr/bin/python3
"""validate-json.py SCHEMA FILE...: each FILE against the JSON Schema
(draft 2020-12) SCHEMA, with Debian's python3-jsonschema.  Prints the
first violation of each invalid file with its path; exit status 1 if any
is invalid (or unreadable), else 0."""
import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: validate-json.py SCHEMA FILE...")
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}")
            bad += 1
            continue
        err = jsonschema.exceptions.best_match(validator.iter_errors(doc))
        if err is not None:
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{path}: at /{where}: {err.message}")
            bad += 1
    sys.exit(1 if bad else 0)


main()
