package strictschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	obj := func(props string, required ...string) string {
		b, _ := json.Marshal(required)
		return `{"type":"object","properties":{` + props + `},"required":` + string(b) + `,"additionalProperties":false}`
	}
	score := `"score":{"type":"integer","minimum":1,"maximum":10}`
	deep := obj(`"x":{"type":"string"}`, "x")
	for range MaxDepth - 1 {
		deep = obj(`"x":`+deep, "x")
	}
	bigEnum := make([]string, 300)
	for i := range bigEnum {
		bigEnum[i] = fmt.Sprintf("%060d", i)
	}
	enumJSON, _ := json.Marshal(bigEnum)
	for _, tc := range []struct {
		name      string
		schema    string
		fineTuned bool
		want      string
	}{
		{"strict", obj(`"a":{"type":"string"},"b":{"type":["string","null"]}`, "a", "b"), false, ""},
		{"optional", obj(`"a":{"type":"string"},"b":{"type":"string"}`, "a"), false,
			"In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'."},
		{"open object", `{"type":"object","properties":{}}`, false,
			"In context=(), 'additionalProperties' is required to be supplied and to be false."},
		{"nested open object", obj(`"xs":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}`, "xs"), false,
			"In context=('properties', 'xs', 'items'), 'additionalProperties' is required to be supplied and to be false."},
		{"anyOf member", obj(`"v":{"anyOf":[{"type":"null"},{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}]}`, "v"), false,
			"In context=('properties', 'v', 'anyOf', 1), 'required' is required to be supplied and to be an array including every key in properties. Missing 'a'."},
		{"range", obj(score, "score"), false, ""},
		{"range, fine-tuned", obj(score, "score"), true,
			"In context=('properties', 'score'), 'minimum' is not permitted."},
		{"maxItems, fine-tuned", obj(`"xs":{"type":"array","items":{"type":"string"},"maxItems":5}`, "xs"), true,
			"In context=('properties', 'xs'), 'maxItems' is not permitted."},
		{"maxLength", obj(`"s":{"type":"string","maxLength":5}`, "s"), false, ""},
		{"allOf", obj(`"s":{"allOf":[{"type":"string"}]}`, "s"), false, "In context=('properties', 's'), 'allOf' is not permitted."},
		{"oneOf", obj(`"s":{"oneOf":[{"type":"string"},{"type":"null"}]}`, "s"), false, "In context=('properties', 's'), 'oneOf' is not permitted."},
		{"root array", `{"type":"array","items":{"type":"string"}}`, false,
			`schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`},
		{"root anyOf", `{"anyOf":[` + obj(`"a":{"type":"string"}`, "a") + `]}`, false,
			"In context=(), 'anyOf' is not permitted at the root: the root must be an object."},
		{"10 levels", deep, false, ""},
		{"11 levels", obj(`"x":`+deep, "x"), false,
			"In context=('properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x', 'properties', 'x'), the schema nests objects 11 levels deep; at most 10 are permitted."},
		{"large enum", obj(`"e":{"type":"string","enum":`+string(enumJSON)+`}`, "e"), false,
			"In context=('properties', 'e'), an enum of 300 values has 18000 characters; at most 15000 are permitted when there are more than 250 values."},
		{"$defs", `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"required":["a"],"additionalProperties":false,"$defs":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`, false,
			"In context=('$defs', 'a'), 'additionalProperties' is required to be supplied and to be false."},
	} {
		got, err := Check(json.RawMessage(tc.schema), tc.fineTuned)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckCountsProperties(t *testing.T) {
	var b strings.Builder
	var req []string
	for i := range MaxProperties + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{"type":"boolean"}`, i)
		req = append(req, fmt.Sprintf("p%d", i))
	}
	r, _ := json.Marshal(req)
	got, _ := Check(json.RawMessage(`{"type":"object","properties":{`+b.String()+`},"required":`+string(r)+`,"additionalProperties":false}`), false)
	if want := "The schema has 5001 object properties in all; at most 5000 are permitted."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFineTuned(t *testing.T) {
	for model, want := range map[string]bool{"ft:gpt-4o-mini-2024-07-18:acme::abc123": true, "gpt-4o-mini": false, "gpt-ft": false} {
		if FineTuned(model) != want {
			t.Errorf("FineTuned(%q) = %v", model, !want)
		}
	}
}
