package strictschema

import (
	"encoding/json"
	"testing"
)

func TestCheckAnthropic(t *testing.T) {
	obj := func(props string) string {
		return `{"type":"object","properties":{` + props + `},"additionalProperties":false}`
	}
	for _, tc := range []struct {
		name, schema, want string
	}{
		// Optional properties are fine: Anthropic does not require every
		// property in required, as OpenAI does.
		{"optional", obj(`"a":{"type":"string"},"b":{"type":["string","null"]}`), ""},
		{"minimum", obj(`"score":{"type":"integer","minimum":1}`), "For 'integer' type, property 'minimum' is not supported"},
		{"maximum in a union", obj(`"c":{"type":["number","null"],"maximum":1}`), "For 'number' type, property 'maximum' is not supported"},
		{"exclusiveMinimum", obj(`"c":{"type":"number","exclusiveMinimum":0}`), "For 'number' type, property 'exclusiveMinimum' is not supported"},
		{"maxLength", obj(`"s":{"type":"string","maxLength":5}`), "For 'string' type, property 'maxLength' is not supported"},
		{"maxItems in items", obj(`"xs":{"type":"array","items":{"type":"array","items":{"type":"string"},"maxItems":5}}`), "For 'array' type, property 'maxItems' is not supported"},
		{"minItems 1", obj(`"xs":{"type":"array","items":{"type":"string"},"minItems":1}`), ""},
		{"minItems 2", obj(`"xs":{"type":"array","items":{"type":"string"},"minItems":2}`), "For 'array' type, 'minItems' values other than 0 or 1 are not supported"},
		{"open object", `{"type":"object","properties":{}}`, "For 'object' type, 'additionalProperties' must be explicitly set to false"},
		{"nested open object in anyOf", obj(`"v":{"anyOf":[{"type":"null"},{"type":"object","properties":{"a":{"type":"string"}}}]}`), "For 'object' type, 'additionalProperties' must be explicitly set to false"},
		{"allOf", obj(`"s":{"allOf":[{"type":"string"}]}`), ""},
		{"oneOf", obj(`"s":{"oneOf":[{"type":"string"},{"type":"null"}]}`), "Schema type 'oneOf' is not supported; use 'anyOf'."},
		{"format", obj(`"d":{"type":"string","format":"date"}`), ""},
		{"unknown format", obj(`"d":{"type":"string","format":"ipv5"}`), "For 'string' type, format 'ipv5' is not supported; supported formats are date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid"},
		{"enum of objects", obj(`"e":{"enum":[{"a":1}]}`), "For 'schema' type, enum values must be strings, numbers, booleans or null"},
		{"local $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"additionalProperties":false,"$defs":{"A":{"type":"string"}}}`, ""},
		{"$defs member", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"additionalProperties":false,"$defs":{"A":{"type":"integer","multipleOf":2}}}`, "For 'integer' type, property 'multipleOf' is not supported"},
		{"external $ref", obj(`"a":{"$ref":"https://example.com/a.json"}`), "External $ref 'https://example.com/a.json' is not supported; only references within the schema are"},
		{"not an object", `[1]`, "The schema must be a JSON object."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CheckAnthropic(json.RawMessage(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	if _, err := CheckAnthropic(json.RawMessage(`{`)); err == nil {
		t.Error("a schema that is not JSON: no error")
	}
}
