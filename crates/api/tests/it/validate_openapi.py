"""Validates the OpenAPI document written by tests/it/openapi.rs.

Usage: validate_openapi.py DOCUMENT.json

- the document is valid OpenAPI 3.1 (openapi-spec-validator, which also checks every schema
  against the 3.1 dialect);
- every `example` of a component schema validates against its schema (JSON Schema 2020-12,
  references resolved in the document).

Prints one line per problem and exits 1 when there is any.
"""

import json
import sys

import jsonschema
import referencing
from openapi_spec_validator import OpenAPIV31SpecValidator
from referencing.jsonschema import DRAFT202012


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    problems = []
    if not str(doc.get("openapi", "")).startswith("3.1."):
        problems.append(f"openapi is {doc.get('openapi')!r}, not 3.1.x")
    try:
        for error in OpenAPIV31SpecValidator(doc).iter_errors():
            problems.append(f"spec: {error.message} at {list(error.absolute_path)}")
    except Exception as error:  # a dangling reference raises instead of reporting
        problems.append(f"spec: {type(error).__name__}: {error}"[:500])

    uri = "urn:freehire:openapi"
    registry = referencing.Registry().with_resource(
        uri, referencing.Resource.from_contents(doc, default_specification=DRAFT202012)
    )
    examples = 0
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        if "example" not in schema:
            continue
        examples += 1
        validator = jsonschema.Draft202012Validator(
            {"$ref": f"{uri}#/components/schemas/{name}"}, registry=registry
        )
        for error in validator.iter_errors(schema["example"]):
            problems.append(f"example of {name}: {error.message} at {list(error.absolute_path)}")
    if examples == 0:
        problems.append("no component schema has an example")

    for problem in problems:
        print(problem)
    print(f"checked {len(doc.get('paths', {}))} paths, {examples} examples")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
